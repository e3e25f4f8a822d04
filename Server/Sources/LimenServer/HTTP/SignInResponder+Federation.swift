import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import Logging

extension SignInResponder {
    /// The sign-ins through upstream providers, over this provider's store and clock.
    var upstream: UpstreamSignIn { UpstreamSignIn(store: store, now: now) }

    /// Sends the browser to `client`'s provider to sign in for `pending` (stored already): the redirect, or a page
    /// saying the provider cannot be reached.
    func redirectUpstream(_ client: UpstreamClient, pending: PendingAuthorization) async throws(StorageError)
        -> Response
    {
        do {
            return Responses.redirect(
                to: try await upstream.begin(client, pending: pending, issuer: issuer.current).absoluteString)
        } catch .storage(let error) {
            throw error
        } catch {
            return upstreamFailure(error, client: client, pending: pending)
        }
    }

    /// The page for a sign-in through `client`'s provider that did not finish: `502` when the provider could not be
    /// reached or broke the protocol, `400` when it, or Limen's checks, refused. Only the error's code is logged, to
    /// `logger` (the request's, when the caller has it).
    func upstreamFailure(
        _ error: UpstreamSignInError,
        client: UpstreamClient,
        pending: PendingAuthorization?,
        logger: Logger = Logger(label: "limen.federation")
    ) -> Response {
        let name = client.provider.displayName
        error.log(provider: client.provider, to: logger)
        if error.isUnavailable {
            return Pages.message(
                title: "\(name) cannot be reached", message: "Try again in a moment, or sign in another way.",
                status: .badGateway, uiLocales: pending?.record.uiLocales)
        }
        return Pages.message(
            title: "Signing in with \(name) did not work",
            message: "Go back to the application and start signing in again.", status: .badRequest,
            uiLocales: pending?.record.uiLocales)
    }
}
