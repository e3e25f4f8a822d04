import Hummingbird
import LimenServerCore
import LimenServerStorage

extension DeviceVerification.Outcome {
    /// The page that tells the person how their confirmation of `pending` ended.
    func page(for pending: PendingAuthorization) -> Response {
        switch self {
        case .requestGone: Pages.requestGone(uiLocales: pending.record.uiLocales)
        case .codeEnded: Pages.deviceCodeEnded()
        case .denied: Pages.deviceDenied(clientName: pending.client.name)
        case .approved: Pages.deviceApproved(clientName: pending.client.name)
        }
    }
}
