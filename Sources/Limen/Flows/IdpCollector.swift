import Foundation
import LimenOIDC

/// `IDP`: a button that signs in with an upstream identity provider (a company's OpenID provider, Google, …) in a web
/// session and then continues the flow, as PingDavinci's `IdpCollector`. Press it with ``authorize(using:)``, never
/// with ``ContinueNode/next()`` (which skips it) or ``ContinueNode/next(action:)`` (which cannot open a page).
///
/// ```swift
/// case let idp as IdpCollector:
///     node = await idp.authorize(using: userAgent)  // opens the provider's page, then continues the flow
/// ```
public final class IdpCollector: Collector {
    public let type: String
    public let key: String
    public let label: String
    /// The upstream provider's ID (the server's `identity_providers[].id`), e.g. `glewlwyd`; empty when the server
    /// did not say.
    public let provider: String
    /// The step this collector belongs to, as the server sent it.
    private let step: FlowStepDocument
    /// The interaction of that step.
    private let interaction: FlowInteraction
    /// The node holding this collector, whose values an error node keeps (weak: the node holds its collectors).
    private let owner = LockedValue(NodeReference())

    init(_ document: FlowCollectorDocument, step: FlowStepDocument, interaction: FlowInteraction) {
        (type, key, label, provider) = (document.type, document.key, document.label, document.provider ?? "")
        (self.step, self.interaction) = (step, interaction)
    }

    /// Signs in with the upstream provider, then continues the flow with what it proved.
    ///
    /// Presses this button (no values are sent), opens the page the server answers with in `userAgent` and waits for
    /// the redirect to the redirect URI the flow was started with, checks it (`state` in constant time, `iss` against
    /// the discovered issuer) and sends the code it carries to the same step. The answer is any node, as after a
    /// submit: a ``Node/success(_:)`` has been redeemed and the session stored.
    ///
    /// When the provider refuses (`access_denied`, `temporarily_unavailable`, …) or the web session is cancelled or
    /// fails, the interaction goes on: the answer is this step again as an ``ErrorNode``, with the values entered,
    /// whose one detail is keyed by this collector's ``key`` and has the provider's `error` or the
    /// ``UserAgentError/code`` (`user_agent.cancelled`, …) as its code, so the person can choose another way. A
    /// redirect with a wrong `state` or `iss` is a ``FailureNode`` whose cause is a
    /// ``LimenError/protocolViolation(_:)``: it is an attack or a bug, not something to retry.
    /// - Parameter userAgent: Shows the provider's page and returns the redirect, e.g. LimenApple's
    ///   web authentication session.
    public func authorize(using userAgent: some UserAgent) async -> Node {
        let document: FlowDocument
        switch await interaction.answer(to: interaction.submission(step: step.id, action: key, values: [:])) {
        case .success(let answer): document = answer
        case .failure(let cause): return .failure(FailureNode(cause: cause))
        }
        guard case .redirect(let url, _) = document.node else {
            return await interaction.node(of: document, submitted: owner.withLock(\.node))
        }
        let here = interaction.named(by: document)
        let callback: URL
        do throws(UserAgentError) {
            callback = try await userAgent.authorize(
                url: url, callback: CallbackMatcher(redirectURI: here.request.redirectURI))
        } catch {
            return again(code: error.code, message: "\(error.localizedDescription) Try again or choose another way.")
        }
        let code: String
        do throws(LimenError) {
            code = try await here.flows.session.authorizationCode(of: callback, answering: here.request)
        } catch .oauth(let error) {
            return again(code: error.error.rawValue, message: Self.sentence(for: error.error))
        } catch {
            return .failure(FailureNode(cause: FlowError(error)))
        }
        return await here.send(
            here.submission(step: step.id, action: key, values: ["code": .string(code)]),
            submitted: owner.withLock(\.node))
    }

    /// This step again, in the same interaction and with the values entered, as an error node whose one detail,
    /// keyed by this collector, has `code` and `message`.
    func again(code: String, message: String) -> Node {
        let fresh = ContinueNode(step, interaction: interaction)
        if let entered = owner.withLock(\.node) { fresh.keepValues(of: entered) }
        return .error(
            ErrorNode(
                message: message, details: [FlowErrorDetail(key: key, code: code, message: message)], node: fresh,
                retryAfter: nil)
        )
    }

    /// Remembers the node holding this collector.
    func belongs(to owner: ContinueNode) {
        self.owner.withLock { $0.node = owner }
    }

    /// A sentence for the person about the provider's `error`.
    private static func sentence(for error: OAuthError.ErrorCode) -> String {
        switch error {
        case .accessDenied: "The sign-in was refused or cancelled at the provider. Try again or choose another way."
        case .temporarilyUnavailable, .serverError:
            "The provider cannot sign you in right now. Try again later or choose another way."
        default: "The provider did not sign you in (\(error.rawValue)). Try again or choose another way."
        }
    }
}

/// A node held without keeping it alive.
private struct NodeReference: Sendable {
    weak var node: ContinueNode?
}
