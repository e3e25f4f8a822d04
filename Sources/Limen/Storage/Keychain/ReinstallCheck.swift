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
///   and are deleted, then the new identifier is recorded;
/// - nothing recorded (a first launch, or items written before this check existed): the items are kept and the
///   identifier is recorded.
///
/// Every process sharing the items has its own record unless they share the marker too: an app and its widget each
/// keep their marker in their own container, and with one record each would take the other's marker for a reinstall
/// and wipe the shared session. With the marker in the app-group container (``InstallationMarker`` in a shared
/// directory) one record serves all of them.
///
/// Field-encryption keys (`<namespace>.field_key.…`) follow their own rule, ``EncryptionKeyRetention``: kept by
/// ``EncryptionKeyRetention/keep`` (the default, as across a sign-out), deleted with the rest by
/// ``EncryptionKeyRetention/delete``.
///
/// A marker that cannot be read or created (a data-protected file before the first unlock, a read-only disk) never
/// passes for a reinstall: the check is skipped and tried again on the next access. A Keychain failure is thrown, so
/// a locked device reads as a retryable ``StorageError``.
actor ReinstallCheck {
    /// The prefix of the accounts of the items recording installations; reserved in every store that runs the check.
    static let accountPrefix = ".installation"
    /// The account of this check's record: ``accountPrefix`` for a marker shared by every process, else
    /// `.installation.<process>`.
    let account: String
    private let marker: InstallationMarker
    private let fieldKeys: LockedValue<EncryptionKeyRetention>
    private var isDone = false
    private static let logger = Logger(label: "limen.storage")

    /// A check against `marker`; `process` names this process (its bundle identifier) when the marker is its own, or
    /// is `nil` when every process sharing the items shares the marker. `fieldKeys` is read at each check.
    init(marker: InstallationMarker, process: String?, fieldKeys: LockedValue<EncryptionKeyRetention>) {
        self.marker = marker
        self.fieldKeys = fieldKeys
        account = process.map { "\(Self.accountPrefix).\(Self.accountSafe($0))" } ?? Self.accountPrefix
    }

    /// Runs the check over `items` unless it already passed in this process.
    func run(on items: any KeychainItems) throws(StorageError) {
        guard !isDone else { return }
        let recorded: String?
        switch items.copyData(account: account) {
        case .success(let data): recorded = data.map { String(decoding: $0, as: UTF8.self) }
        case .failure(.itemNotFound): recorded = nil
        case .failure(let status): throw status.storageError
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
            try removeEarlierInstallation(from: items)
        }
        let status = items.replace(account: account, data: Data(current.utf8))
        guard status == .success else { throw status.storageError }
        isDone = true
    }

    /// Deletes every item but the field-encryption keys that ``EncryptionKeyRetention/keep`` keeps.
    private func removeEarlierInstallation(from items: any KeychainItems) throws(StorageError) {
        let accounts: [String]
        switch items.allAccounts() {
        case .success(let all): accounts = all
        case .failure(let status): throw status.storageError
        }
        let keepsKeys = fieldKeys.withLock { $0 } == .keep
        for account in accounts where !(keepsKeys && FieldKeyring.isKeyAccount(account)) {
            let status = items.delete(account: account)
            guard status == .success || status == .itemNotFound else { throw status.storageError }
        }
        Self.logger.notice("removed keychain items left by an earlier installation of the app")
    }

    /// `name` with every character a store key cannot hold replaced by `_`, short enough for one.
    private static func accountSafe(_ name: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")
        return String(String(name.map { allowed.contains($0) ? $0 : "_" }).prefix(100))
    }
}
