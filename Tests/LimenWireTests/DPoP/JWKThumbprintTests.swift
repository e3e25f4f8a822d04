import Foundation
import LimenTestSupport
import LimenWire
import TestSupport
import Testing

/// A published or joserfc-computed JWK thumbprint: the key as JSON text and its thumbprint.
struct ThumbprintExample: Sendable, CustomTestStringConvertible {
    let source: String
    let jwk: String
    let thumbprint: String

    var testDescription: String { source }

    var key: JSONWebKey {
        get throws { JSONWebKey(parameters: try #require(try JSONValue(parsing: Data(jwk.utf8)).objectValue)) }
    }
}

@Suite("JWK thumbprints (RFC 7638)")
struct JWKThumbprintTests {
    static let examples = [
        ThumbprintExample(
            source: "RFC 7638 §3.1 (RSA)",
            jwk:
                #"{"kty":"RSA","n":"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw","e":"AQAB","alg":"RS256","kid":"2011-04-29"}"#,
            thumbprint: "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"),
        ThumbprintExample(
            source: "RFC 8037 Appendix A.3 (OKP Ed25519)",
            jwk:
                #"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#,
            thumbprint: "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"),
        // The EC key of RFC 7517 Appendix A.1; its thumbprint as joserfc 1.8's ECKey.thumbprint() gives it.
        ThumbprintExample(
            source: "RFC 7517 Appendix A.1 (EC P-256), by joserfc",
            jwk:
                #"{"kty":"EC","crv":"P-256","x":"MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4","y":"4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM","use":"enc","kid":"1"}"#,
            thumbprint: "cn-I_WNMClehiVp51i_0VpOENW1upEerA8sEam5hn-s"),
        // The ES256 key of RFC 7515 Appendix A.3, by joserfc 1.8.
        ThumbprintExample(
            source: "RFC 7515 Appendix A.3 (EC P-256), by joserfc",
            jwk:
                #"{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}"#,
            thumbprint: "oKIywvGUpTVTyxMQ3bwIIeQUudfr_CkLMjCE19ECD-U"),
    ]

    @Test("a key's thumbprint is the published one", arguments: examples)
    func published(example: ThumbprintExample) throws {
        #expect(try example.key.thumbprint == example.thumbprint)
    }

    @Test("members outside the required ones (kid, alg, use, private d) do not change the thumbprint")
    func optionalMembersIgnored() throws {
        var key = try Self.examples[2].key
        key.parameters["kid"] = "another"
        key.parameters["alg"] = "ES256"
        key.parameters["use"] = "sig"
        key.parameters["d"] = "private"
        #expect(key.thumbprint == Self.examples[2].thumbprint)
    }

    @Test("an oct key's thumbprint covers k and kty, as the field-encryption key ID does")
    func octKey() throws {
        let key = FieldEncryptionKey.generate()
        let jwk = JSONWebKey(parameters: try #require(try JSONValue(parsing: key.jwk).objectValue))
        #expect(jwk.thumbprint == key.keyID)
    }

    @Test(
        "no thumbprint for an unknown key type, a missing required member, or a member that is not a string",
        arguments: [
            ["kty": "OKT", "crv": "Ed25519", "x": "AA"],
            ["crv": "Ed25519", "x": "AA"],
            ["kty": "EC", "crv": "P-256", "x": "AA"],
            ["kty": "RSA", "n": "AA"],
            ["kty": "EC", "crv": "P-256", "x": "AA", "y": 1],
            ["kty": "OKP", "crv": ["Ed25519"], "x": "AA"],
        ] as [[String: JSONValue]])
    func incomplete(parameters: [String: JSONValue]) {
        #expect(JSONWebKey(parameters: parameters).thumbprint == nil)
    }

    @Test(
        "joserfc and Limen give random EC, RSA and OKP keys the same thumbprint",
        .enabled(if: JoserfcPeer.unavailableReason == nil, "python3 with joserfc is missing (pip install joserfc)"))
    func differential() async throws {
        let output = try await PythonScript.run("Tests/Peers/dpop/proofs.py", arguments: ["thumbprints"])
        guard case .array(let keys)? = try JSONValue(parsing: output).objectValue?["keys"] else {
            Issue.record("the script printed no keys")
            return
        }
        #expect(keys.count == 10)
        for entry in keys {
            let jwk = try #require(entry.objectValue?["jwk"]?.objectValue)
            #expect(JSONWebKey(parameters: jwk).thumbprint == entry.objectValue?["thumbprint"]?.stringValue)
        }
    }
}
