import Foundation
import Limen

/// The two-step sign-in article's example, compiled with the tests.
func twoStepSignInSetUp(
    client: AuthClient,
    showQRCode: @Sendable (URL) -> Void,
    askForCode: @Sendable () async -> String,
    show: @Sendable ([String]) -> Void
) async throws {
    // snippet: two-step-enrol
    // The signed-in user adds the secret to an authenticator app (a QR code of the otpauth URI, or the key typed).
    let enrolment = try await client.enrolTOTP()
    showQRCode(enrolment.uri)
    while true {
        do {
            // The app's first code turns two-step sign-in on; the ten recovery codes are shown only now.
            show(try await enrolment.confirm(code: await askForCode()))
            break
        } catch .account(.invalidCode) {
            continue  // a wrong code changes nothing: the same enrolment takes another
        }
    }
    // end snippet
}

/// Its state and the bearer calls.
func twoStepSignInManage(client: AuthClient, askForCode: @Sendable () async -> String) async throws {
    // snippet: two-step-manage
    if case .enabled(_, let left) = try await client.twoStepStatus(), left < 3 {
        // Each change asks for a fresh second step: a code of the app, or a recovery code.
        let codes = try await client.newRecoveryCodes(code: await askForCode())
        print("\(codes.count) new recovery codes")
    }
    try await client.disableTOTP(code: await askForCode())
    // end snippet
}
