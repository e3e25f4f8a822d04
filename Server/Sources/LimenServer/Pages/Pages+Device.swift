import HTTPTypes
import Hummingbird
import LimenServerCore
import LimenServerStorage

extension Pages {
    /// The user-code form of `/device`, with the code typed or linked so far and an error when it was refused.
    static func deviceCode(
        csrf: String,
        userCode: String?,
        error: String?,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        let page = DeviceCodePage(
            lang: PageLanguage.tag(uiLocales: nil), title: "Connect a device", csrf: csrf, userCode: userCode,
            error: error)
        return render(page, template: "device", title: page.title, status: status)
    }

    /// The device was allowed: it signs in at its next poll.
    static func deviceApproved(clientName: String) -> Response {
        message(
            title: "Device connected",
            message: "\(clientName) is now signed in on your device. You can close this page.",
            status: .ok,
            isError: false
        )
    }

    /// The device was denied.
    static func deviceDenied(clientName: String) -> Response {
        message(
            title: "Device not connected",
            message: "You denied \(clientName) access. Nothing was signed in.",
            status: .ok,
            isError: false
        )
    }

    /// The device authorization expired or was decided elsewhere while the page was open.
    static func deviceCodeEnded() -> Response {
        message(
            title: "This code has expired",
            message: "The code expired or was already used. Start again on your device.",
            status: .badRequest
        )
    }
}

/// The values of the user-code page.
private struct DeviceCodePage {
    var lang: String
    var title: String
    var csrf: String
    var userCode: String?
    var error: String?
}
