import Foundation
import HTTPTypes
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import LimenWire
import NIOCore

/// `POST /flows/{flow}` starts an interaction with a flow; `POST /flows/interactions/{id}` continues it (the wire
/// contract of ``FlowEngine``'s nodes, documented in `Server/openapi.yaml`). Every answer is JSON, never cached; a
/// malformed or oversized body is a `400` failure node, never a `500`. (`GET /flows/link`, where an email's link leads
/// for a client without an `email_link_uri`, is a page: ``EmailLinkRoutes``.)
enum FlowRoutes {
    /// The route of starts, limited per client address like `/authorize` (each stores an interaction).
    static let startRoute: RouterPath = "/flows/:flow"
    /// The route of continuations, limited per client address like the sign-in forms.
    static let continuationRoute: RouterPath = "/flows/interactions/:id"
    /// The largest body accepted.
    static let maximumBodySize = 64 * 1024

    /// Adds both routes, run by `engine`; `gate` allows a start's access token (of a user signed in on the device),
    /// and `proxies` say who the client is. `signInLimiter` (the one the sign-in forms and continuations are counted
    /// by) also counts a start that presses a button (`action`), since that runs the button's actions as a
    /// continuation would.
    static func add(
        to router: Router<some RemoteAddressRequestContext>,
        engine: FlowEngine,
        gate: AccountChangeGate,
        proxies: TrustedProxies,
        signInLimiter: RateLimiter?,
        now: @escaping @Sendable () -> Date
    ) {
        router.post(startRoute) { request, context in
            let flow = try context.parameters.path(FlowName.self).rawValue
            let origin = RequestOrigin(request, context: context, peer: context.remoteAddress, proxies: proxies)
            return try await answer { () throws(StorageError) in
                switch await startParameters(of: request) {
                case .success(let parameters):
                    // A user signed in on the device: the credentials the flow finds may be linked to them
                    // (AccountLinking), an account change the gate must allow first.
                    var signedIn: AccessTokenClaims?
                    if request.headers[.authorization] != nil {
                        let token = PresentedAccessToken(in: request)
                        switch try await gate.authorize(token, clientSecret: parameters["client_secret"]) {
                        case .success(let permit): signedIn = permit.claims
                        case .failure(.missingToken): return AccountChangeRefusal.invalidToken.flowAnswer
                        case .failure(let refusal): return refusal.flowAnswer
                        }
                    }
                    if parameters["action"] != nil, let wait = signInLimiter?.admit(origin.address, at: now()) {
                        return tooManyRequests(wait: wait)
                    }
                    return try await engine.logging(to: context.logger).start(
                        flow: flow, parameters: parameters, signedIn: signedIn, origin: origin)
                case .failure(let failure): return failure
                }
            }
        }
        router.post(continuationRoute) { request, context in
            let id = try context.parameters.path(InteractionID.self).rawValue
            let origin = RequestOrigin(request, context: context, peer: context.remoteAddress, proxies: proxies)
            return try await answer { () throws(StorageError) in
                switch await submission(of: request) {
                case .success(let submission):
                    try await engine.logging(to: context.logger).proceed(
                        interaction: id, submission: submission, origin: origin)
                case .failure(let failure): failure
                }
            }
        }
    }

    /// `body`'s answer as a response. A database that cannot serve for now is thrown on, to be the `503`
    /// `temporarily_unavailable` of every route (``StorageError``'s response: no node, so the client keeps its
    /// interaction and tries again); any other storage failure is a `500` failure node.
    private static func answer(_ body: () async throws(StorageError) -> FlowAnswer) async throws(StorageError)
        -> Response
    {
        let answer: FlowAnswer
        do throws(StorageError) {
            answer = try await body()
        } catch let error where error.isUnavailable {
            throw error
        } catch {
            answer = .failure("server_error", "The request could not be completed.", status: .serverError)
        }
        var response = Responses.json(answer.json, status: answer.status.http, noStore: true)
        if let seconds = answer.retryAfter { response.headers[.retryAfter] = "\(seconds)" }
        if let refusal = answer.accountChangeRefusal {
            response.headers[.wwwAuthenticate] = refusal.challenge.response.headers[.wwwAuthenticate]
        }
        return response
    }

    /// A start's parameters: a form, or a JSON object of strings.
    private static func startParameters(of request: Request) async -> Result<FormFields, FlowAnswer> {
        if FormFields.isForm(contentType: request.headers[.contentType]) {
            return await FormFields.read(from: request).mapError { refusal in
                refusal == .tooLarge ? invalidBody("the body is larger than 64 KiB") : invalidBody(refusal.description)
            }
        }
        return await json(of: request).flatMap { document in
            guard case .object(let members) = document else { return .failure(invalidBody("expected a JSON object")) }
            var pairs: [(name: String, value: String)] = []
            for (name, value) in members.sorted(by: { $0.key < $1.key }) {
                switch value {
                case .string(let text): pairs.append((name, text))
                case .bool(let flag) where name == "allow_migration": pairs.append((name, flag ? "true" : "false"))
                default: return .failure(invalidBody("\(name) must be a string"))
                }
            }
            return Result { () throws(FormRefusal) in try FormFields.parse(FormEncoding.encode(pairs)) }
                .mapError { invalidBody($0.description) }
        }
    }

    /// A continuation's submission.
    private static func submission(of request: Request) async -> Result<FlowSubmission, FlowAnswer> {
        guard MediaType.matches(request.headers[.contentType], "application/json") else {
            return .failure(
                .failure("unsupported_media_type", "the body must be application/json", status: .unsupportedMediaType))
        }
        var request = request
        guard let buffer = try? await request.collectBody(upTo: maximumBodySize) else {
            return .failure(invalidBody("the body is larger than 64 KiB"))
        }
        return FlowSubmission.parse(Data(buffer.readableBytesView)).mapError { invalidBody($0.description) }
    }

    /// A JSON body, strictly parsed.
    private static func json(of request: Request) async -> Result<JSONValue, FlowAnswer> {
        guard MediaType.matches(request.headers[.contentType], "application/json") else {
            return .failure(
                .failure(
                    "unsupported_media_type", "the body must be application/json or a form",
                    status: .unsupportedMediaType))
        }
        var request = request
        guard let buffer = try? await request.collectBody(upTo: maximumBodySize) else {
            return .failure(invalidBody("the body is larger than 64 KiB"))
        }
        guard let document = try? JSONValue(parsing: Data(buffer.readableBytesView)) else {
            return .failure(invalidBody("the body is not valid JSON (or names a member twice)"))
        }
        return .success(document)
    }

    /// The sign-in limit's refusal, as ``RateLimitMiddleware`` words it, with `Retry-After`.
    private static func tooManyRequests(wait: TimeInterval) -> FlowAnswer {
        let seconds = max(1, Int(wait.rounded(.up)))
        var answer = FlowAnswer.failure(
            "too_many_requests", "Too many requests from this address. Try again in \(seconds) seconds.",
            status: .tooManyRequests)
        answer.retryAfter = seconds
        return answer
    }

    private static func invalidBody(_ description: String) -> FlowAnswer {
        .failure("invalid_request", description, status: .invalid)
    }
}
