import Foundation
import LimenTestSupport

/// Real certificate chains made with the `openssl` command (OpenSSL 3) for the pinning tests, and each certificate's
/// pin computed by OpenSSL's own pipeline (`openssl x509 -pubkey | openssl pkey -pubin -outform der | openssl dgst
/// -sha256 -binary | base64`), so the SDK's SubjectPublicKeyInfo extraction is checked against OpenSSL's.
///
/// root (RSA 2048) → intermediate (P-384) → leaf (P-256); `rotated` is the leaf re-issued later with the same key;
/// `backup` is a leaf with the backup key (P-256) a pinned server rotates to; `other` is a leaf with another key
/// (Ed25519) under the same intermediate. The leaves name `id.example.test`, `localhost` and `127.0.0.1`.
public struct CertificateChains: Sendable {
    /// A certificate in DER and PEM, its private key in PEM, and its pin as OpenSSL prints it (base64, no prefix).
    public struct Issued: Sendable {
        /// The certificate in DER.
        public let der: Data
        /// The certificate in PEM.
        public let pem: String
        /// The private key in PEM (PKCS #8).
        public let keyPEM: String
        /// The pin of its key, as OpenSSL prints it.
        public let pin: String
    }

    /// The root certificate authority.
    public let root: Issued
    /// The intermediate authority every leaf is issued by.
    public let intermediate: Issued
    /// The server's leaf.
    public let leaf: Issued
    /// The leaf renewed with the same key.
    public let rotated: Issued
    /// The leaf issued for the backup key.
    public let backup: Issued
    /// A leaf with a key nobody pinned.
    public let other: Issued

    /// The chain the leaf's server presents, leaf first.
    public var leafChain: [Data] { [leaf.der, intermediate.der, root.der] }
    /// The chain after the leaf's renewal with the same key.
    public var rotatedChain: [Data] { [rotated.der, intermediate.der, root.der] }
    /// The chain of a server with a key nobody pinned.
    public var otherChain: [Data] { [other.der, intermediate.der, root.der] }

    /// The chains, made once per test run.
    public static func shared() async throws -> CertificateChains { try await made.value }

    private static let made = Task { try await make() }

    /// The commands that make the chains in the current directory.
    private static let script = #"""
        set -eu
        printf 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n' > ca.ext
        printf 'basicConstraints=critical,CA:FALSE\nsubjectAltName=DNS:id.example.test,DNS:localhost,IP:127.0.0.1\n' \
            > leaf.ext
        openssl req -x509 -newkey rsa:2048 -nodes -keyout root.key -subj '/CN=Limen Test Root' -days 30 \
            -addext 'basicConstraints=critical,CA:TRUE' -addext 'keyUsage=critical,keyCertSign,cRLSign' \
            -out root.pem 2>/dev/null
        issue() { # name, key algorithm options, issuer, extensions, serial, [existing key]
            [ -f "$1.key" ] || openssl genpkey $2 -out "$1.key"
            openssl req -new -key "$1.key" -subj "/CN=$1" -out "$1.csr"
            openssl x509 -req -in "$1.csr" -CA "$3.pem" -CAkey "$3.key" -set_serial "$5" -days 30 \
                -extfile "$4" -out "$1.pem" 2>/dev/null
        }
        issue intermediate '-algorithm EC -pkeyopt ec_paramgen_curve:P-384' root ca.ext 2
        issue leaf '-algorithm EC -pkeyopt ec_paramgen_curve:P-256' intermediate leaf.ext 3
        cp leaf.key rotated.key
        issue rotated '' intermediate leaf.ext 4
        issue other '-algorithm ED25519' intermediate leaf.ext 5
        issue backup '-algorithm EC -pkeyopt ec_paramgen_curve:P-256' intermediate leaf.ext 6
        for name in root intermediate leaf rotated backup other; do
            openssl x509 -in "$name.pem" -outform der -out "$name.der"
            openssl x509 -in "$name.pem" -pubkey -noout | openssl pkey -pubin -outform der \
                | openssl dgst -sha256 -binary | base64 > "$name.pin"
        done
        """#

    private static func make() async throws -> CertificateChains {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("limen-pinning-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await Subprocess.run(
            URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script], currentDirectory: directory)
        func issued(_ name: String) throws -> Issued {
            let pin = try String(contentsOf: directory.appendingPathComponent("\(name).pin"), encoding: .utf8)
            return Issued(
                der: try Data(contentsOf: directory.appendingPathComponent("\(name).der")),
                pem: try String(contentsOf: directory.appendingPathComponent("\(name).pem"), encoding: .utf8),
                keyPEM: try String(contentsOf: directory.appendingPathComponent("\(name).key"), encoding: .utf8),
                pin: pin.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return CertificateChains(
            root: try issued("root"), intermediate: try issued("intermediate"), leaf: try issued("leaf"),
            rotated: try issued("rotated"), backup: try issued("backup"), other: try issued("other"))
    }
}
