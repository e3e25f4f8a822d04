/// Why a form body or query was not read; each route answers it in its own way (an OAuth error, a page).
package enum FormRefusal: Error, Sendable, Equatable {
    /// The body is not ``FormFields/mediaType`` (answered with 415).
    case unsupportedMediaType
    /// The body is larger than ``FormFields/maximumSize`` (answered with 413).
    case tooLarge
    /// The named field is given more than once (RFC 6749 §3.1, §3.2; answered with 400).
    case repeated(String)

    /// What went wrong, for an error page or an `error_description`.
    package var description: String {
        switch self {
        case .unsupportedMediaType: "the body must be \(FormFields.mediaType)"
        case .tooLarge: "the request body is too large"
        case .repeated(let name): "\(name) is repeated"
        }
    }
}
