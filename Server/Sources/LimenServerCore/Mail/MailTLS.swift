import NIOConcurrencyHelpers
import NIOSSL

/// The TLS both mail transports (SMTP and the webhook) use: TLS 1.2 or later, the system's CAs or `mail_ca_file`'s.
package enum MailTLS {
    /// A client context trusting the CA certificates (PEM) in `caFile`, or the system's when `nil`.
    static func clientContext(trusting caFile: String?) throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        if let caFile { configuration.trustRoots = .file(caFile) }
        return try NIOSSLContext(configuration: configuration)
    }

    /// The name TLS sends and checks the certificate against; `nil` for an IP address, which SNI cannot carry (the
    /// certificate is then checked against the address).
    package static func serverName(for host: String) -> String? {
        host.allSatisfy { $0.isHexDigit || $0 == "." || $0 == ":" } ? nil : host
    }
}

/// The TLS client context of one mailer, made at its first use and kept: the CA file is read and the context built
/// once, not for every message. A context that could not be made is tried again at the next use.
package final class MailTLSContext: Sendable {
    private let caFile: String?
    private let made = NIOLockedValueBox<NIOSSLContext?>(nil)

    /// The context trusting the CA certificates (PEM) in `caFile`, or the system's when `nil`.
    package init(trusting caFile: String?) {
        self.caFile = caFile
    }

    /// The context, made now if it was not yet.
    package func context() throws -> NIOSSLContext {
        try made.withLockedValue { made in
            if let made { return made }
            let context = try MailTLS.clientContext(trusting: caFile)
            made = context
            return context
        }
    }
}
