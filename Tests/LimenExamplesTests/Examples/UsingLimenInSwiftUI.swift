import Foundation
import Limen
import LimenUIModel

/// The SwiftUI article's cross-platform example: the flow sheet's model driven by hand.
@MainActor
func usingLimenInSwiftUIFlowForm(client: AuthClient, password: String) async {
    // snippet: swiftui-flow-form
    let form = FlowFormModel(client: client, flow: "sign-in")
    await form.start()
    for element in form.elements {
        print(element.label, element.accessibilityLabel)  // "Email", "Email, required"
    }
    form[text: "email"] = "ada@example.com"
    form[text: "password"] = password
    await form.submit()  // checks the fields with the server's rules first
    switch form.phase {
    case .step: print(form.message ?? "", form.errors(for: "password"))
    case .finished(let user): print("signed in as \(user.email ?? "")")
    case .failed(let cause): print(cause.code)
    case .idle: break
    }
    // end snippet
}

/// The SwiftUI article's passkey example: a `PASSKEY` button of the flow sheet's model pressed by hand.
@MainActor
func usingLimenInSwiftUIPasskeyButton(client: AuthClient, passkeys: some PasskeyAuthenticator) async {
    // snippet: swiftui-flow-passkey
    let form = FlowFormModel(client: client, flow: "passkey", passkeys: passkeys)
    await form.start()
    if let passkey = form.elements.first(where: { $0.kind == .passkey(.authenticate) }) {
        await form.press(passkey.key)  // the ceremony, then the step sent with the credential
        if let failure = form.passkeyError(for: passkey.key) {
            print(failure.code)  // "passkey.cancelled": the step stays, press again
        }
    }
    // end snippet
}
