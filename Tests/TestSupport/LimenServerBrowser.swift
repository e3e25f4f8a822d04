import Foundation
import Limen
import LimenOIDC
import LimenTestSupport

/// Plays a person in a browser against Limen Server's hosted pages: follows redirects by hand with a cookie jar, fills the
/// sign-in form (and allows consent), and hands back the redirect to the client's callback. A page that shows an error
/// (`role="alert"`) ends the attempt with that text.
public final class LimenServerBrowser: UserAgent {
    private let credentials: (email: String, password: String)?
    private let transport = URLSessionTransport(timeout: 60)  // stops a hung test only; a loaded machine is slow
    private let jar: Locked<[String: String]>
    private let seen = Locked<[URL]>([])

    /// A browser that signs in as `email` when asked.
    public init(email: String, password: String) {
        credentials = (email, password)
        jar = Locked([:])
    }

    private init(jar: Locked<[String: String]>) {
        credentials = nil
        self.jar = jar
    }

    /// A browser with `other`'s cookies (the same browser, another tab) that fails if it is asked for a password:
    /// for single sign-on.
    public static func formless(sharingCookiesWith other: LimenServerBrowser) -> LimenServerBrowser {
        LimenServerBrowser(jar: other.jar)
    }

    /// Every callback handed back so far.
    public var callbacks: [URL] { seen.withLock { $0 } }

    public func authorize(url: URL, callback: CallbackMatcher) async throws(UserAgentError) -> URL {
        do {
            let location = try await follow(url, until: callback)
            seen.withLock { $0.append(location) }
            return location
        } catch let error as UserAgentError {
            throw error
        } catch {
            throw .presentationFailed(String(describing: error))
        }
    }

    /// Where browsing ended.
    enum Outcome {
        /// The provider redirected to the awaited URL.
        case redirected(URL)
        /// A page without a form: the end of a flow that does not redirect (the device grant's result page).
        case page(String)
    }

    /// Opens `url` and answers each page until the provider redirects to the callback.
    public func follow(_ url: URL, until callback: CallbackMatcher) async throws -> URL {
        guard case .redirected(let location) = try await browse(url, until: callback.matches) else {
            throw UserAgentError.presentationFailed("the pages ended without a redirect to the callback")
        }
        return location
    }

    /// Approves a device authorization (RFC 8628) as the person would: opens the verification page, enters
    /// `userCode`, signs in and allows; returns the text of the final page.
    public func approveDevice(verificationURI: URL, userCode: String) async throws -> String {
        guard case .page(let text) = try await browse(verificationURI, userCode: userCode, until: { _ in false }) else {
            throw UserAgentError.presentationFailed("the device pages redirected")
        }
        return text
    }

    private func browse(_ url: URL, userCode: String? = nil, until stop: (URL) -> Bool) async throws -> Outcome {
        var response = try await send(HTTPRequest(url: url))
        var current = url
        for _ in 0..<10 {
            if response.status == 302 || response.status == 303 {
                guard let header = response.header("Location"), let next = URL(string: header, relativeTo: current)
                else { throw UserAgentError.presentationFailed("a redirect without a Location") }
                if stop(next.absoluteURL) { return .redirected(next.absoluteURL) }
                current = next.absoluteURL
                response = try await send(HTTPRequest(url: current))
                continue
            }
            let page = String(decoding: response.body, as: UTF8.self)
            guard response.status == 200 else {
                throw UserAgentError.presentationFailed("page answered \(response.status): \(page.prefix(300))")
            }
            if let alert = Self.alert(in: page) { throw UserAgentError.presentationFailed("the page says: \(alert)") }
            guard let action = Self.formAction(in: page) else { return .page(page) }
            guard let target = URL(string: action, relativeTo: current)?.absoluteURL else {
                throw UserAgentError.presentationFailed("a form without a usable action")
            }
            var fields = Self.hiddenFields(in: page)
            if page.contains("name=\"password\"") {
                guard let credentials else { throw UserAgentError.presentationFailed("asked for a password") }
                fields += [("email", credentials.email), ("password", credentials.password)]
            }
            if page.contains("name=\"user_code\""), let userCode { fields.append(("user_code", userCode)) }
            if page.contains("value=\"allow\"") { fields.append(("decision", "allow")) }
            current = target
            response = try await send(
                HTTPRequest(
                    method: "POST",
                    url: target,
                    headers: ["Content-Type": "application/x-www-form-urlencoded"],
                    body: Data(FormEncoding.encode(fields).utf8)
                )
            )
        }
        throw UserAgentError.presentationFailed("too many pages")
    }

    private func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var request = request
        let cookies = jar.withLock { $0 }
        if !cookies.isEmpty {
            request.headers["Cookie"] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                .joined(separator: "; ")
        }
        let response = try await transport.send(request)
        for cookie in Self.cookies(in: response.header("Set-Cookie") ?? "") {
            jar.withLock { $0[cookie.name] = cookie.value.isEmpty ? nil : cookie.value }
        }
        return response
    }

    /// Name and value of each cookie in a `Set-Cookie` value. Foundation joins several headers with ", ", which also
    /// occurs inside an `Expires` date; a piece whose first part is not `name=value` is such a date's tail.
    static func cookies(in header: String) -> [(name: String, value: String)] {
        header.components(separatedBy: ", ").compactMap { segment in
            guard let first = segment.split(separator: ";").first else { return nil }
            let pair = first.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard pair.count == 2, !pair[0].contains(" ") else { return nil }
            return (pair[0], pair[1])
        }
    }

    private static func alert(in page: String) -> String? {
        guard let range = page.range(of: "role=\"alert\">") else { return nil }
        let rest = page[range.upperBound...]
        return rest.range(of: "</").map { String(rest[..<$0.lowerBound]) }
    }

    private static func formAction(in page: String) -> String? {
        guard let range = page.range(of: "<form method=\"post\" action=\"") else { return nil }
        let rest = page[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    private static func hiddenFields(in page: String) -> [(String, String)] {
        page.components(separatedBy: "<input type=\"hidden\" name=\"").dropFirst().compactMap { chunk in
            let parts = chunk.components(separatedBy: "\" value=\"")
            guard parts.count > 1, let end = parts[1].firstIndex(of: "\"") else { return nil }
            return (parts[0], String(parts[1][..<end]))
        }
    }
}
