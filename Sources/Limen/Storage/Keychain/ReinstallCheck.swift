import Foundation
import Logging

/// The first-launch check of a `KeychainStore`: removes the items an earlier installation of the app left behind,
/// since iOS keeps Keychain items when an app is deleted, and a reinstalled app would otherwise silently restore the
/// old session.
///
/// A Keychain item records the identifier of the ``InstallationMarker`` (a file deleted with the app) that was present
/// when the items were written. On the store's first access in a process:
/// - recorded and on disk agree: nothing to do;
/// - recorded but the marker is missing (a fresh container) or different: the items are from an earlier installation
///   and are all deleted, then the new identifier is recorded;
/// - nothing recorded (a first launch, or items written before this check existed): the items are kept and the
///   identifier is recorded.
///
/// A marker that cannot be read or created (a data-protected file before the first unlock, a read-only disk) never
/// passes for a reinstall: the check is skipped and tried again on the next access. A Keychain failure is thrown, so
/// a locked device reads as a retryable ``StorageError``.
actor ReinstallCheck {
    /// The account of the item recording the installation; reserved in every store that runs the check.
    static let account = ".installation"
    private let marker: InstallationMarker
    private var isDone = false
    private static let logger = Logger(label: "limen.storage")

    /// A check against `marker`.
    init(marker: InstallationMarker) {
        self.marker = marker
    }

    /// Runs the check over `items` unless it already passed in this process.
    func run(on items: any KeychainItems) throws(StorageError) {
        guard !isDone else { return }
        let recorded: String?
        switch items.copyData(account: Self.account) {
        case .success(let data): recorded = data.map { String(decoding: $0, as: UTF8.self) }
        case .failure(.itemNotFound): recorded = nil
        case .failure(let status): throw .keychain(status: status.rawValue)
        }
        let current: String
        do {
            current = try marker.readOrCreate()
        } catch {
            Self.logger.warning(
                "installation marker unavailable; reinstall check postponed",
                metadata: ["path": "\(marker.path)", "code": "\(error.code)"])
            return
        }
        if recorded == current {
            isDone = true
            return
        }
        if recorded != nil {
            let status = items.deleteAll()
            guard status == .success || status == .itemNotFound else { throw .keychain(status: status.rawValue) }
            Self.logger.notice("removed keychain items left by an earlier installation of the app")
        }
        let status = items.replace(account: Self.account, data: Data(current.utf8))
        guard status == .success else { throw .keychain(status: status.rawValue) }
        isDone = true
    }
}
