// Apple-only: compiled to nothing on Linux, type-checked by Scripts/apple-typecheck.sh against the stand-ins.
#if canImport(UIKit) && canImport(AuthenticationServices) && canImport(SwiftUI)
    import AuthenticationServices
    import Foundation
    import Limen
    import LimenApple
    import SwiftUI
    import UIKit

    /// The app-to-app article's requesting app: sign-in through the provider's app, the web session otherwise.
    @MainActor
    func appToAppSignIn(client: AuthClient, window: UIWindow) async throws {
        // snippet: app2app-requesting
        let agent = AppToAppUserAgent(
            client: client,
            opener: UIApplicationUniversalLinkOpener(),
            fallback: WebAuthenticationSessionUserAgent { window }
        )
        let user = try await client.signIn(using: agent)
        // snippet.hide
        _ = user
        // end snippet
    }

    /// The requesting app's scene: the provider's app sends the person back to a universal link of this app.
    // snippet: app2app-requesting-redirect
    struct RequestingAppRoot: View {
        let client: AuthClient

        var body: some View {
            Text("Shop")
                .onOpenURL { url in
                    // The redirect of a sign-in through the provider's app (and an email's link).
                    Task { await client.handle(url: url) }
                }
        }
    }
    // end snippet

    /// The host app's answer to a request it received as a universal link.
    @MainActor
    func appToAppHost(client: AuthClient, url: URL, askPerson: (AppToAppRequest) async -> Bool) async {
        // snippet: app2app-host
        do {
            let request = try await client.appToAppRequest(for: url)
            // Who asks and for what: request.clientName, request.logoURL, request.scopes
            let allowed = request.consentRequired ? await askPerson(request) : true
            let redirect = try await allowed ? request.approve() : request.deny()
            _ = await UIApplication.shared.open(redirect)  // back to the requesting app
        } catch .appToApp(.notAnAuthorizationRequest) {
            // not a sign-in request to this provider: handle the link as any other
        } catch .appToApp(.loginRequired) {
            // the requesting app asks for a fresh sign-in: sign the person in again here, then ask again
        } catch {
            print(error.code, error.errorDescription ?? "")  // refused, an answered request, the network
        }
        // end snippet
    }
#endif
