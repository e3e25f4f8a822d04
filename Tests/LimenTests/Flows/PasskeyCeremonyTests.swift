import Foundation
import Limen
import LimenOIDC
import Testing

@Suite("Passkey ceremonies: WebAuthn's JSON options read into a platform API's parts, its credentials written back")
struct PasskeyCeremonyTests {
    static let creation: JSONValue = .object([
        "rp": .object(["id": .string("example.com"), "name": .string("Limen")]),
        "user": .object(["id": .string("AQID"), "name": .string("ada@example.com"), "displayName": .string("Ada")]),
        "challenge": .string("BAUG"),
        "excludeCredentials": .array([.object(["id": .string("Bw"), "type": .string("public-key")])]),
        "authenticatorSelection": .object(["userVerification": .string("required")]),
    ])

    @Test("creation options give the RP ID, challenge, user handle and name, and the excluded credentials")
    func creationOptions() throws {
        let ceremony = try PasskeyCeremony(creationOptions: Self.creation)
        #expect(ceremony.relyingPartyID == "example.com")
        #expect(ceremony.challenge == Data([4, 5, 6]))
        #expect(ceremony.user?.id == Data([1, 2, 3]))
        #expect(ceremony.user?.name == "ada@example.com")
        #expect(ceremony.credentialIDs == [Data([7])])
        #expect(ceremony.requiresUserVerification)
    }

    @Test("request options give the RP ID, challenge and allowed credentials; empty allows any discoverable one")
    func requestOptions() throws {
        let usernameless = try PasskeyCeremony(
            requestOptions: .object([
                "rpId": .string("example.com"), "challenge": .string("BAUG"), "allowCredentials": .array([]),
                "userVerification": .string("required"),
            ]))
        #expect(usernameless.credentialIDs.isEmpty)
        #expect(usernameless.user == nil)
        #expect(usernameless.requiresUserVerification)
        let restricted = try PasskeyCeremony(
            requestOptions: .object([
                "rpId": .string("example.com"), "challenge": .string("BAUG"),
                "allowCredentials": .array([.object(["id": .string("CAk")])]), "userVerification": .string("preferred"),
            ]))
        #expect(restricted.credentialIDs == [Data([8, 9])])
        #expect(!restricted.requiresUserVerification)
    }

    @Test("options without a member the platform needs, or not base64url, are refused naming it")
    func malformed() {
        #expect(throws: PasskeyError.failed("the options have no rpId")) {
            try PasskeyCeremony(requestOptions: .object(["challenge": .string("BAUG")]))
        }
        #expect(throws: PasskeyError.failed("challenge is not base64url")) {
            try PasskeyCeremony(requestOptions: .object(["rpId": .string("a"), "challenge": .string("*")]))
        }
        #expect(throws: PasskeyError.failed("the options have no user.name")) {
            guard case .object(var members) = Self.creation else { return }
            members["user"] = .object(["id": .string("AQID")])
            _ = try PasskeyCeremony(creationOptions: .object(members))
        }
        #expect(throws: PasskeyError.failed("allowCredentials[].id is not base64url")) {
            try PasskeyCeremony(
                requestOptions: .object([
                    "rpId": .string("a"), "challenge": .string("BAUG"),
                    "allowCredentials": .array([.object(["id": .string("%")])]),
                ]))
        }
    }

    @Test("a platform's credentials become RegistrationResponseJSON and AuthenticationResponseJSON")
    func answers() {
        let registration = PasskeyCeremony.registrationJSON(
            credentialID: Data([1]), clientDataJSON: Data([2]), attestationObject: Data([3]))
        #expect(registration.objectValue?["id"] == .string("AQ"))
        #expect(registration.objectValue?["rawId"] == .string("AQ"))
        #expect(registration.objectValue?["type"] == .string("public-key"))
        #expect(
            registration.objectValue?["response"]
                == .object(["clientDataJSON": .string("Ag"), "attestationObject": .string("Aw")]))
        let assertion = PasskeyCeremony.assertionJSON(
            credentialID: Data([1]), clientDataJSON: Data([2]), authenticatorData: Data([3]), signature: Data([4]),
            userHandle: Data([5]))
        #expect(
            assertion.objectValue?["response"]
                == .object([
                    "clientDataJSON": .string("Ag"), "authenticatorData": .string("Aw"), "signature": .string("BA"),
                    "userHandle": .string("BQ"),
                ]))
        let noHandle = PasskeyCeremony.assertionJSON(
            credentialID: Data([1]), clientDataJSON: Data(), authenticatorData: Data(), signature: Data(),
            userHandle: nil)
        #expect(noHandle.objectValue?["response"]?.objectValue?["userHandle"] == nil)
    }
}
