// Stand-in (see ../README.md). Not Apple's code: a declaration only.
//
// Foundation declares this on Apple platforms; Linux's FoundationNetworking lacks it (it never delivers a server-trust
// challenge), so the stand-in Security module supplies it where the Apple-only files see it.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLProtectionSpace {
    /// https://developer.apple.com/documentation/foundation/urlprotectionspace/servertrust —
    /// `var serverTrust: SecTrust? { get }`
    public var serverTrust: SecTrust? { nil }
}
