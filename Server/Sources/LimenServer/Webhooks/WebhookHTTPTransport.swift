import Foundation
import LimenServerCore
import NIOCore

/// Posts event webhooks over SwiftNIO (``WebhookPost``): TLS with the system's CAs (or `mail_ca_file`'s) for `https`,
/// plain HTTP for the loopback URLs development allows; one request, no redirect followed, traced as an outgoing
/// request.
struct WebhookHTTPTransport: WebhookTransport {
    /// The TLS context, made once for every delivery.
    let tls: MailTLSContext

    /// A transport trusting the CA certificates (PEM) in `trustedCAFile`, or the system's when `nil`.
    init(trustedCAFile: String?) {
        tls = MailTLSContext(trusting: trustedCAFile)
    }

    func post(_ body: Data, headers: [(String, String)], to url: WebhookURL, timeout: Duration)
        async throws(WebhookSendError) -> Int
    {
        // WebhookPost gives connecting a quarter of the exchange's deadline.
        let quarter = TimeAmount.nanoseconds(
            max(timeout.components.seconds * 250_000_000 + timeout.components.attoseconds / 4_000_000_000, 1))
        let post = WebhookPost(endpoint: url.endpoint, tls: url.usesTLS ? tls : nil, timeout: quarter)
        let clock = ContinuousClock()
        let started = clock.now
        do {
            let status: (Int) -> Int = { $0 }
            return try await OutgoingRequestSpan.run(method: "POST", url: url.url, status: status) {
                try await post.send(body: ByteBuffer(bytes: body), headers: headers)
            }
        } catch {
            throw clock.now - started >= timeout ? .timeout : .connectionFailed
        }
    }
}
