import Foundation
import HTTPTypes
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenWire

/// App-to-app sign-in (``AppToAppAuthorization``), for the provider's own app with its bearer access token:
/// `POST /authorize/app2app` with `{"request": query}` (the query of the `/authorize` URL the app was opened with)
/// answers `{"client": {"id", "name", "logo_uri"}, "scopes", "consent_required", "approval"}`;
/// `POST /authorize/app2app/approve` with `{"approval", "decision": "approve" | "deny"}` answers `{"redirect": URL}`,
/// the URL the host app opens to return to the requesting app. A refusal is an OAuth error object (with a bearer
/// challenge on a `401` and `403`, and a `redirect` carrying the error to the requesting app when its redirect URI was
/// established); `409 login_required` asks the host app to sign the person in again first.
enum AppToAppRoutes {
    /// The start, limited per client address as `/authorize` is (each stores a request).
    static let beginRoute: RouterPath = "/authorize/app2app"
    /// The decision.
    static let approveRoute: RouterPath = "/authorize/app2app/approve"
    /// The largest body read, in bytes: an authorization request's parameters, within `/authorize`'s limits.
    static let maximumBodySize = 32 * 1024

    static func add(to router: Router<some RequestContext>, authorization: AppToAppAuthorization) {
        router.post(beginRoute) { request, _ in
            await answer { () throws(AnswerError) in
                let body = try await readBody(request)
                let query = try field(body, "request", maximumLength: 24 * 1024)
                let begun = try await storage { () throws(StorageError) in
                    try await authorization.begin(token: PresentedAccessToken(in: request), request: query)
                }
                return Responses.json(try allowed(begun).json, noStore: true)
            }
        }
        router.post(approveRoute) { request, _ in
            await answer { () throws(AnswerError) in
                let body = try await readBody(request)
                let approval = try field(body, "approval", maximumLength: 256)
                guard let decision = AppToAppAuthorization.Decision(rawValue: try field(body, "decision")) else {
                    throw .refused(
                        Responses.jsonError(
                            "invalid_request", description: "decision must be approve or deny", status: .badRequest))
                }
                let decided = try await storage { () throws(StorageError) in
                    try await authorization.decide(
                        token: PresentedAccessToken(in: request), approval: approval, decision: decision)
                }
                let redirect = try allowed(decided)
                return Responses.json(.object(["redirect": .string(redirect)]), noStore: true)
            }
        }
    }

    /// A response other than the happy one.
    private enum AnswerError: Error {
        /// The store failed.
        case storage(StorageError)
        /// The answer is this refusal.
        case refused(Response)
    }

    /// Runs `body`, answering its refusal, or a `500` when the store failed.
    private static func answer(_ body: () async throws(AnswerError) -> Response) async -> Response {
        do {
            return try await body()
        } catch {
            switch error {
            case .storage(let error) where error.isUnavailable:
                return StorageError.unavailableResponse(html: false)
            case .storage:
                return Responses.jsonError(
                    "server_error", description: "the server could not read its data", status: .internalServerError)
            case .refused(let response): return response
            }
        }
    }

    /// What the store answered; its failure as ``AnswerError/storage(_:)``.
    private static func storage<T>(_ body: () async throws(StorageError) -> T) async throws(AnswerError) -> T {
        do {
            return try await body()
        } catch {
            throw .storage(error)
        }
    }

    /// The success, or the refusal's response thrown.
    private static func allowed<T>(_ result: Result<T, AppToAppRefusal>) throws(AnswerError) -> T {
        switch result {
        case .success(let value): return value
        case .failure(let refusal): throw .refused(refusal.response)
        }
    }

    private static func readBody(_ request: Request) async throws(AnswerError) -> JSONObjectBody {
        do {
            return try await JSONObjectBody.read(from: request, maximumSize: maximumBodySize)
        } catch {
            throw .refused(error.response)
        }
    }

    private static func field(
        _ body: JSONObjectBody, _ name: String, maximumLength: Int = 32
    ) throws(AnswerError) -> String {
        do {
            return try body.string(name, maximumLength: maximumLength, required: true) ?? ""
        } catch {
            throw .refused(error.response)
        }
    }
}
