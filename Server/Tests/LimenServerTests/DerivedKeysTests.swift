import Crypto
import Foundation
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Keys derived from the master key")
struct DerivedKeysTests {
    @Test("one master key gives the same keyed hash on every node, and another master key a different one")
    func deterministicPerMasterKey() {
        let master = MasterKey(key: SymmetricKey(size: .bits256))
        let first = DerivedKeys(masterKey: master).hmacHex("ada@example.com", for: .signInThrottle)
        let second = DerivedKeys(masterKey: master).hmacHex("ada@example.com", for: .signInThrottle)
        let stranger = DerivedKeys(masterKey: MasterKey(key: SymmetricKey(size: .bits256)))

        #expect(first == second)
        #expect(first.count == 64)
        #expect(stranger.hmacHex("ada@example.com", for: .signInThrottle) != first)
    }

    @Test("each purpose has its own key, none of them the master key")
    func purposesAreSeparate() {
        let master = MasterKey(key: SymmetricKey(size: .bits256))
        let keys = DerivedKeys(masterKey: master)
        let hashes = Set(DerivedKeyPurpose.allCases.map { keys.hmacHex("value", for: $0) })
        let underMaster = HMAC<SHA256>.authenticationCode(for: Data("value".utf8), using: master.key)
            .map { String(format: "%02x", $0) }.joined()

        #expect(hashes.count == DerivedKeyPurpose.allCases.count)
        #expect(!hashes.contains(underMaster))
    }

    @Test("a device user code's stored hash is an HMAC under the master key: not its SHA-256, not alike across keys")
    func userCodeHash() {
        let first = DerivedKeys(masterKey: MasterKey(key: SymmetricKey(size: .bits256)))
        let second = DerivedKeys(masterKey: MasterKey(key: SymmetricKey(size: .bits256)))
        let hash = UserCode.hash(normalised: "BCDFGHJK", keys: first)
        #expect(hash == UserCode.hash(normalised: "BCDFGHJK", keys: first))
        #expect(hash != Data(SHA256.hash(data: Data("BCDFGHJK".utf8))))
        #expect(hash != UserCode.hash(normalised: "BCDFGHJK", keys: second))
    }
}
