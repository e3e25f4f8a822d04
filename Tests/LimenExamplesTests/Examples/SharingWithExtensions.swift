// Apple-only: compiled to nothing on Linux, type-checked by Scripts/apple-typecheck.sh against the stand-ins.
#if canImport(Security) && canImport(WidgetKit) && (canImport(Darwin) || LIMEN_APPLE_TYPECHECK)
    import Foundation
    import Limen
    import LimenApple

    /// The extensions article's app-group configuration.
    func sharingAppGroup() throws -> AuthClient {
        // snippet: sharing-app-group
        var configuration = Configuration(
            issuer: URL(string: "https://id.example.com")!,
            clientID: "ios-app",
            redirectURI: URL(string: "com.example.app:/callback")!
        )
        try configuration.appGroup("group.com.example")
        let client = AuthClient(configuration: configuration)
        // snippet.hide
        return client
        // end snippet
    }

    /// The extensions article's widget hook.
    func sharingWidgetHook(configuration: inout Configuration) throws {
        // snippet: sharing-widget-hook
        try configuration.appGroup("group.com.example", onSessionChange: WidgetTimelines.reloadAll)
        // end snippet
    }
#endif
