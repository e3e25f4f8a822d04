import NIOSSL

/// The TLS both mail transports (SMTP and the webhook) use: TLS 1.2 or later, the system's CAs or `mail_ca_file`'s.
enum MailTLS {
    /// A client context trusting the CA certificates (PEM) in `caFile`, or the system's when `nil`.
    static func clientContext(trusting caFile: String?) throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        if let caFile { configuration.trustRoots = .file(caFile) }
        return try NIOSSLContext(configuration: configuration)
    }

    /// The name TLS sends and checks the certificate against; `nil` for an IP address, which SNI cannot carry (the
    /// certificate is then checked against the address).
    static func serverName(for host: String) -> String? {
        host.allSatisfy { $0.isHexDigit || $0 == "." || $0 == ":" } ? nil : host
    }
}
