import Crypto
import Foundation
import LimenOIDC

/// Hand-built JWTs for attacks a real signer would not produce, and helpers shared by test key code.
public enum TestJWT {
    /// `BASE64URL(header) . BASE64URL(claims)`, with keys sorted so tokens are reproducible.
    public static func signingInput(header: [String: JSONValue], claims: [String: JSONValue]) -> String {
        TestBase64URL.encode(Data(TestJSON.string(.object(header)).utf8)) + "."
            + TestBase64URL.encode(Data(TestJSON.string(.object(claims)).utf8))
    }

    /// A token with `alg: none` and an empty signature (RFC 7519 §6.1).
    public static func unsecured(_ claims: [String: JSONValue]) -> String {
        signingInput(header: ["alg": "none"], claims: claims) + "."
    }

    /// A token MACed with HS256 under `secret`: with an RSA public key's bytes as the secret this is the classic
    /// algorithm-confusion attack.
    public static func hs256(_ claims: [String: JSONValue], secret: Data, header: [String: JSONValue] = [:]) -> String {
        let fields = header.merging(["alg": "HS256"]) { _, new in new }
        let input = signingInput(header: fields, claims: claims)
        let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: secret))
        return input + "." + TestBase64URL.encode(Data(mac))
    }

    /// The OpenID Connect `at_hash` of an access token for an SHA-256 algorithm, computed independently of Limen.
    public static func sha256AccessTokenHash(_ accessToken: String) -> String {
        TestBase64URL.encode(Data(SHA256.hash(data: Data(accessToken.utf8))).prefix(16))
    }
}

/// Unpadded base64url for tests.
public enum TestBase64URL {
    /// Encodes bytes as unpadded base64url.
    public static func encode(_ bytes: some DataProtocol) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes unpadded base64url; `nil` when it is not.
    public static func decode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64.append(String(repeating: "=", count: (4 - base64.count % 4) % 4))
        return Data(base64Encoded: base64)
    }

    /// The compact JWS with one bit of its signature's byte at `index` flipped.
    public static func flippingSignatureByte(of compact: String, at index: Int = 0) -> String {
        var segments = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard segments.count == 3, var signature = decode(segments[2]), signature.count > index else { return compact }
        signature[signature.startIndex + index] ^= 0x01
        segments[2] = encode(signature)
        return segments.joined(separator: ".")
    }
}

/// Compact JSON with sorted keys for tests.
public enum TestJSON {
    /// The JSON text of a value.
    public static func string(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}
