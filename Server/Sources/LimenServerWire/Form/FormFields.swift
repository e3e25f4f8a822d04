import LimenWire

/// The fields of an `application/x-www-form-urlencoded` body or a URL query, by name: the one form reader of every
/// route, from `/token` to the hosted pages.
///
/// One rule for all, RFC 6749's (§3.1, §3.2): a field given more than once is refused (``parse(_:allowingRepeats:)``
/// throws ``FormRefusal/repeated(_:)``), and a field given without a value counts as absent (the subscript). The two
/// exceptions are accessors, not other readers: `/authorize` parses `allowingRepeats` because it answers a repeat
/// itself (an error page for `client_id`, an error sent to the client for `scope`, and `resource` may repeat, RFC 8707),
/// and the admin API's `limit` reads ``value(sent:)``, which keeps an empty value so that `?limit=` is refused, not
/// taken for the default.
///
/// ```swift
/// let form = try FormFields.parse("grant_type=refresh_token&scope=")
/// form["grant_type"]  // "refresh_token"
/// form["scope"]       // nil: sent empty, so absent
/// ```
package struct FormFields: Sendable {
    /// The media type of a form body.
    package static let mediaType = "application/x-www-form-urlencoded"

    /// The largest form body read, in bytes.
    package static let maximumSize = 64 * 1024

    /// Every value of every field, in the order sent, empty values included.
    private let values: [String: [String]]

    /// Reads a form body or query string (``FormEncoding/decode(_:)``): refuses a field given more than once, unless
    /// `allowingRepeats` (for a route that answers repeats itself, through ``isRepeated(_:)`` and ``values(_:)``).
    package static func parse(_ text: String, allowingRepeats: Bool = false) throws(FormRefusal) -> FormFields {
        var values: [String: [String]] = [:]
        for (name, value) in FormEncoding.decode(text) {
            if !allowingRepeats && values[name] != nil { throw .repeated(name) }
            values[name, default: []].append(value)
        }
        return FormFields(values: values)
    }

    /// Whether a `Content-Type` names the form media type (parameters such as `charset` allowed).
    package static func isForm(contentType: String?) -> Bool {
        MediaType.matches(contentType, mediaType)
    }

    /// The value of the field `name`, or `nil` when it is absent, sent empty (RFC 6749 §3.1: as if omitted) or, in a
    /// form parsed `allowingRepeats`, sent more than once.
    package subscript(_ name: String) -> String? {
        guard let value = value(sent: name), !value.isEmpty else { return nil }
        return value
    }

    /// The fields without the ones sent empty: a page's filter form sends its empty inputs, which mean "any".
    package var withoutEmptyValues: FormFields {
        FormFields(values: values.filter { !$0.value.allSatisfy(\.isEmpty) })
    }

    /// The value of the field `name` as sent, an empty one included; `nil` when it is absent or sent more than once.
    /// For the admin API's query, where an empty value is a mistake to refuse rather than an omission.
    package func value(sent name: String) -> String? {
        guard let list = values[name], list.count == 1 else { return nil }
        return list[0]
    }

    /// The values of the field `name` that are not empty, in the order sent: several only in a form parsed
    /// `allowingRepeats` (`/authorize`'s `resource`, RFC 8707 §2).
    package func values(_ name: String) -> [String] {
        values[name, default: []].filter { !$0.isEmpty }
    }

    /// Whether the field `name` was sent more than once (only possible in a form parsed `allowingRepeats`).
    package func isRepeated(_ name: String) -> Bool {
        values[name, default: []].count > 1
    }

    /// The names of the fields sent.
    package var names: Set<String> {
        Set(values.keys)
    }

    /// These fields with `name` set to `value` when it was not sent (a value a route implies, such as a flow start's
    /// `response_type=code`).
    package func adding(_ name: String, _ value: String) -> FormFields {
        guard values[name] == nil else { return self }
        var values = self.values
        values[name] = [value]
        return FormFields(values: values)
    }
}
