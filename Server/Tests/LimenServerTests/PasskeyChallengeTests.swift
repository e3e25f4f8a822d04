import Foundation
import Testing

@testable import LimenServerCore

@Suite("Passkey challenge: kept in the flow context as JSON, read back in its old shape too")
struct PasskeyChallengeTests {
    @Test("a registration's challenge keeps the user handle its options showed")
    func keepsUserHandle() throws {
        let challenge = PasskeyChallenge(
            collector: "passkey", challenge: "AAAA", expiresAt: Date(timeIntervalSince1970: 1_700_000_000),
            options: "{}", requiresUserVerification: true, userHandle: Data([1, 2, 3]))
        let read = try JSONDecoder().decode(PasskeyChallenge.self, from: JSONEncoder().encode(challenge))
        #expect(read == challenge)
    }

    @Test("a challenge stored before the user handle was kept reads with none, so the registration looks it up")
    func readsOldShape() throws {
        let stored = Data(
            #"{"collector":"passkey","challenge":"AAAA","expiresAt":0,"options":"{}","requiresUserVerification":true}"#
                .utf8)
        let read = try JSONDecoder().decode(PasskeyChallenge.self, from: stored)
        #expect(read.userHandle == nil)
        #expect(read.collector == "passkey")
    }
}
