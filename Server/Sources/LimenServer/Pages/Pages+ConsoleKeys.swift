import Foundation
import HTTPTypes
import Hummingbird
import LimenServerCore
import LimenServerWire

extension Pages {
    /// The console's keys page for the admin `email`: `keys` (oldest first) with their states, the rotation form bound
    /// to `csrf`, and `message` after a rotation.
    static func consoleKeys(
        email: String, root: String, keys: [(key: SigningKey, state: SigningKeyState)], csrf: String,
        message: String? = nil
    ) -> Response {
        var page = ConsolePage(title: "Signing keys", root: root, admin: email, message: message, isError: false)
        page.keysPage = ConsoleKeysPage(keys: keys.map(ConsoleKey.init), csrf: csrf)
        return console(page, status: .ok)
    }
}

extension PageTemplates {
    /// The part of a console page (``console``) listing the signing keys, then the form rotating them.
    static let consoleKeys = """
        <ul class="events" aria-label="Signing keys">
        {{#keys}}<li><strong>{{algorithm}}</strong> <code>{{kid}}</code><br>{{state}} · created \
        <time datetime="{{created}}">{{created}}</time> · signs from <time datetime="{{activates}}">{{activates}}</time>\
        {{#retired}} · retired <time datetime="{{retired}}">{{retired}}</time>{{/retired}}</li>
        {{/keys}}</ul>
        <h2 id="rotate-heading">Rotate</h2>
        <p>New ES256 and RS256 keys are published at once and sign an hour later, when the keys they replace retire; \
        those stay published for a day, so the tokens they signed still verify.</p>
        <form method="post" action="{{root}}admin/console/keys/rotate" aria-labelledby="rotate-heading">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit">Rotate the signing keys</button>
        </form>
        """
}

/// The keys page's values.
struct ConsoleKeysPage {
    /// The keys, oldest first.
    var keys: [ConsoleKey]
    /// The rotation form's CSRF token.
    var csrf: String
}

/// A signing key as the keys page lists it.
struct ConsoleKey {
    /// Its ID.
    var kid: String
    /// `ES256` or `RS256`.
    var algorithm: String
    /// Where it is in its life (``SigningKeyState``).
    var state: String
    /// When it was created, in RFC 3339.
    var created: String
    /// When it signs from, in RFC 3339.
    var activates: String
    /// When it stopped signing, in RFC 3339.
    var retired: String?

    /// The `key` in `state`.
    init(_ key: SigningKey, state: SigningKeyState) {
        (kid, algorithm, self.state) = (key.kid, key.algorithm.rawValue, state.rawValue)
        (created, activates) = (key.createdAt.formatted(.iso8601), key.activatesAt.formatted(.iso8601))
        retired = key.retiredAt?.formatted(.iso8601)
    }
}
