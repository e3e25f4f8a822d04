import Foundation
import Limen

/// The pinning article's configuration.
func certificatePinningConfiguration() throws -> AuthClient {
    // snippet: pinning-configure
    var configuration = Configuration(
        issuer: URL(string: "https://id.example.com")!,
        clientID: "ios-app",
        redirectURI: URL(string: "com.example.app:/callback")!
    )
    configuration.pinning = try CertificatePinning([
        PinnedHost(
            "id.example.com",
            pins: [
                "sha256/KFviXHKUmPHtTehNWOUTrCmUbxyEpp6CjZZqctg3qso=",  // the key the server uses
                "sha256/FvW5kdXt2oX01zmKCu5cGIZL/RBFRdjENarJyKWEWYY=",  // the backup key, kept offline
            ],
            expires: try Date("2027-06-30T00:00:00Z", strategy: .iso8601)
        )
    ])
    let client = AuthClient(configuration: configuration)
    // snippet.hide
    return client
    // end snippet
}

/// The pinning article's report-only trial.
func certificatePinningReport(pins: [String]) throws -> AuthClient {
    var configuration = Configuration(issuer: URL(string: "https://id.example.com")!, clientID: "ios-app")
    // snippet: pinning-report
    configuration.pinning = try CertificatePinning([
        PinnedHost("id.example.com", pins: pins, mode: .reportOnly)
    ])
    let client = AuthClient(configuration: configuration)
    client.addEventHandler { event in
        if case .pinningFailed(let failure) = event {
            // To your telemetry: the host and the keys it presented, none of them pinned.
            print(failure.host, failure.presentedPins.map(\.description))
        }
    }
    // snippet.hide
    return client
    // end snippet
}

/// The pinning article's refusal.
func certificatePinningRefusal(client: AuthClient) async {
    // snippet: pinning-refusal
    do {
        _ = try await client.validAccessToken()
    } catch .pinningFailed(let host) {
        print("\(host) presented a key that is not pinned: not sent (the session is kept)")
    } catch {
        print(error.code)
    }
    // end snippet
}
