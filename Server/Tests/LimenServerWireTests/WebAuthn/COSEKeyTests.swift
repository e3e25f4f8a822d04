import Crypto
import Foundation
import LimenServerWire
import Testing

@Suite("COSE keys: ES256, EdDSA and RS256 credential keys read and their signatures checked; every refusal")
struct COSEKeyTests {
    static let p256 = P256.Signing.PrivateKey()
    static let ed25519 = Curve25519.Signing.PrivateKey()

    /// The COSE_Key map of `p256`, with `changes` applied (a `nil` value removes the member).
    static func es256Key(_ changes: [Int64: CBORValue?] = [:]) -> CBORValue {
        let raw = [UInt8](p256.publicKey.rawRepresentation)
        return key(
            [
                1: .unsigned(2), 3: .negative(-7), -1: .unsigned(1), -2: .bytes(Array(raw[..<32])),
                -3: .bytes(Array(raw[32...])),
            ],
            changes)
    }

    /// The COSE_Key map of `ed25519`, with `changes` applied.
    static func edDSAKey(_ changes: [Int64: CBORValue?] = [:]) -> CBORValue {
        key(
            [
                1: .unsigned(1), 3: .negative(-8), -1: .unsigned(6),
                -2: .bytes([UInt8](ed25519.publicKey.rawRepresentation)),
            ], changes)
    }

    static func key(_ members: [Int64: CBORValue], _ changes: [Int64: CBORValue?]) -> CBORValue {
        var members = members
        for (label, value) in changes { members[label] = value }
        return .map(members.sorted { $0.key < $1.key }.map { (Self.integer($0.key), $0.value) })
    }

    static func integer(_ value: Int64) -> CBORValue {
        value < 0 ? .negative(value) : .unsigned(UInt64(value))
    }

    @Test("an ES256 key checks DER signatures and refuses others")
    func es256() throws {
        let key = try COSEKey(Self.es256Key())
        #expect(key.algorithm == .es256)
        let data = Array("signed".utf8)
        let signature = try Self.p256.signature(for: data).derRepresentation
        #expect(key.isValidSignature(signature, for: data))
        #expect(!key.isValidSignature(signature, for: Array("other".utf8)))
        #expect(!key.isValidSignature(try Self.p256.signature(for: data).rawRepresentation, for: data))
        #expect(!key.isValidSignature([UInt8](), for: data))
    }

    @Test("an EdDSA key checks raw 64-byte signatures")
    func edDSA() throws {
        let key = try COSEKey(Self.edDSAKey())
        #expect(key.algorithm == .edDSA)
        let data = Array("signed".utf8)
        let signature = try Self.ed25519.signature(for: data)
        #expect(key.isValidSignature(signature, for: data))
        #expect(!key.isValidSignature(signature.dropLast(), for: data))
        #expect(!key.isValidSignature(signature, for: Array("other".utf8)))
    }

    @Test(
        "keys with missing, mistyped or wrongly sized members are refused",
        arguments: [
            (es256Key([1: nil]), COSEKeyError.missingMember(label: 1)),
            (es256Key([3: nil]), .missingMember(label: 3)),
            (es256Key([-1: nil]), .missingMember(label: -1)),
            (es256Key([-2: nil]), .missingMember(label: -2)),
            (es256Key([-3: nil]), .missingMember(label: -3)),
            (es256Key([-3: .bool(true)]), .invalidMember(label: -3)),
            (es256Key([-2: .bytes([UInt8](repeating: 1, count: 31))]), .invalidMember(label: -2)),
            (es256Key([-2: .bytes([UInt8](repeating: 1, count: 33))]), .invalidMember(label: -2)),
            (es256Key([1: .text("EC2")]), .invalidMember(label: 1)),
            (es256Key([3: .text("ES256")]), .invalidMember(label: 3)),
            (edDSAKey([-2: .bytes([UInt8](repeating: 1, count: 31))]), .invalidMember(label: -2)),
            (edDSAKey([-1: nil]), .missingMember(label: -1)),
        ])
    func malformedMembers(key: CBORValue, error: COSEKeyError) {
        #expect(throws: error) { try COSEKey(key) }
    }

    @Test(
        "unknown key types, algorithms and curves, and mismatched ones, are refused",
        arguments: [
            (es256Key([1: .unsigned(4)]), COSEKeyError.unsupportedKeyType),
            (es256Key([3: .negative(-35)]), .unsupportedAlgorithm),
            (es256Key([3: .negative(-37)]), .unsupportedAlgorithm),
            (es256Key([-1: .unsigned(2)]), .unsupportedCurve),
            (edDSAKey([-1: .unsigned(7)]), .unsupportedCurve),
            (es256Key([1: .unsigned(1)]), .keyTypeMismatch),
            (edDSAKey([1: .unsigned(2)]), .keyTypeMismatch),
            (es256Key([1: .unsigned(3)]), .keyTypeMismatch),
            (CBORValue.array([]), .notAMap),
        ])
    func unsupported(key: CBORValue, error: COSEKeyError) {
        #expect(throws: error) { try COSEKey(key) }
    }

    @Test("an algorithm the caller does not allow is refused")
    func notAllowed() {
        #expect(throws: COSEKeyError.algorithmNotAllowed(.edDSA)) {
            try COSEKey(Self.edDSAKey(), allowedAlgorithms: [.es256])
        }
    }

    @Test("a P-256 point not on the curve is refused")
    func notOnCurve() {
        let key = Self.es256Key([-3: .bytes([UInt8](repeating: 1, count: 32))])
        #expect(throws: COSEKeyError.invalidKeyMaterial) { try COSEKey(key) }
    }

    @Test("RSA moduli outside 2,048 to 4,096 bits are refused")
    func rsaSizes() {
        let exponent = CBORValue.bytes([1, 0, 1])
        func rsa(_ modulus: [UInt8]) -> CBORValue {
            .map([
                (.unsigned(1), .unsigned(3)), (.unsigned(3), .negative(-257)), (.negative(-1), .bytes(modulus)),
                (.negative(-2), exponent),
            ])
        }
        // Leading zero bytes do not count: 2,040 significant bits.
        #expect(throws: COSEKeyError.unsupportedKeySize) {
            try COSEKey(rsa([0, 0] + [UInt8](repeating: 0xFF, count: 255)))
        }
        #expect(throws: COSEKeyError.unsupportedKeySize) { try COSEKey(rsa([UInt8](repeating: 0xFF, count: 513))) }
        #expect(throws: COSEKeyError.missingMember(label: -2)) {
            try COSEKey(
                .map([(.unsigned(1), .unsigned(3)), (.unsigned(3), .negative(-257)), (.negative(-1), .bytes([1]))]))
        }
    }

    @Test("errors have stable codes")
    func codes() {
        #expect(COSEKeyError.missingMember(label: -2).code == "cose.missing_member")
        #expect(COSEKeyError.algorithmNotAllowed(.rs256).errorDescription?.contains("-257") == true)
    }
}
