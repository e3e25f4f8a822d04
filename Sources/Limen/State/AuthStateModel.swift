import Foundation
import Observation

/// The client's state as an `@Observable` model for SwiftUI (and anything using Observation, Linux included).
///
/// ```swift
/// @State var model = AuthStateModel(client: client)
/// var body: some View { model.state.auth.isAuthenticated ? AnyView(Home()) : AnyView(SignIn()) }
/// ```
@MainActor
@Observable
public final class AuthStateModel {
    /// The latest snapshot; updated on the main actor after every change.
    public private(set) var state: AuthState
    @ObservationIgnored private var feed: Task<Void, Never>?

    /// Starts following a client's state.
    public init(client: AuthClient) {
        state = client.state
        let updates = client.stateUpdates()
        feed = Task { [weak self] in
            for await next in updates {
                guard let self else { return }
                if self.state != next { self.state = next }
            }
        }
    }

    // A plain deinit: `isolated deinit` goes through a back-deployment shim that aborts on earlier OS versions, and
    // cancelling a task needs no isolation.
    deinit {
        feed?.cancel()
    }
}
