import Foundation
import Limen

/// The Objective-C article's Swift example: the completion-handler layer under `LMNAuthClient`.
func callingLimenFromObjectiveCCallbacks() throws {
    // snippet: objc-callbacks
    // Info.plist: a "Limen" dictionary with issuer, clientID, redirectURI, scopes (GrabID's loadLoginSession)
    let callbacks = try CallbackClient(infoDictionary: Bundle.main.infoDictionary ?? [:])
    callbacks.accessToken { token, error in  // on the main queue, exactly once
        if let error, error.domain == LimenError.errorDomain, error.code == LimenErrorCode.network.rawValue {
            print("offline; retry later:", error.userInfo[LimenError.codeUserInfoKey] ?? "")
        } else if let token {
            print("Authorization: Bearer \(token.prefix(8))…")
        }
    }
    let observation = callbacks.observeState { state in print(state.phase) }
    observation.cancel()
    // end snippet
}
