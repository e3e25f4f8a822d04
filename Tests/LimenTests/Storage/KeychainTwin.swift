import Foundation
import LimenTestSupport
import TestSupport

@testable import Limen

/// The Keychain items of one service, answering each call with the `OSStatus` the Keychain gives: the cross-platform
/// twin of `KeychainStore`'s Security calls. It can be locked like a device (every call answers
/// `errSecInteractionNotAllowed`, as for items protected until unlock) or refuse only writes (the device locking
/// between a read and a write).
final class KeychainTwin: KeychainItems {
    private struct State {
        var items: [String: Data] = [:]
        var isLocked = false
        var refusesWrites = false
    }

    private let state = Locked(State())

    /// Every later call answers `errSecInteractionNotAllowed` until ``unlock()``.
    func lock() { state.withLock { $0.isLocked = true } }

    /// Every later add and update answers `errSecInteractionNotAllowed` until ``unlock()``; reads still work.
    func refuseWrites() { state.withLock { $0.refusesWrites = true } }

    /// Answers every call normally again.
    func unlock() { state.withLock { $0 = State(items: $0.items) } }

    /// The accounts that hold an item, sorted.
    var accounts: [String] { state.withLock { $0.items.keys.sorted() } }

    func copyData(account: String) -> Result<Data?, KeychainStatus> {
        state.withLock { state in
            if state.isLocked { return .failure(.interactionNotAllowed) }
            guard let data = state.items[account] else { return .failure(.itemNotFound) }
            return .success(data)
        }
    }

    func add(account: String, data: Data) -> KeychainStatus {
        state.withLock { state in
            if state.isLocked || state.refusesWrites { return .interactionNotAllowed }
            guard state.items[account] == nil else { return .duplicateItem }
            state.items[account] = data
            return .success
        }
    }

    func update(account: String, data: Data) -> KeychainStatus {
        state.withLock { state in
            if state.isLocked || state.refusesWrites { return .interactionNotAllowed }
            guard state.items[account] != nil else { return .itemNotFound }
            state.items[account] = data
            return .success
        }
    }

    func delete(account: String) -> KeychainStatus {
        state.withLock { state in
            if state.isLocked { return .interactionNotAllowed }
            return state.items.removeValue(forKey: account) == nil ? .itemNotFound : .success
        }
    }

    func allAccounts() -> Result<[String], KeychainStatus> {
        state.withLock { state in
            state.isLocked ? .failure(.interactionNotAllowed) : .success(state.items.keys.sorted())
        }
    }
}

extension KeychainItemStore {
    /// A store over `twin`, without the reinstall check unless `markerDirectory` is given; `markerProcess` names the
    /// process whose own marker it is (`nil`: a marker every process shares).
    static func over(
        _ twin: KeychainTwin, lockDirectory: URL? = nil, markerDirectory: URL? = nil, markerProcess: String? = nil
    ) throws -> KeychainItemStore {
        try KeychainItemStore(
            namespace: "app", items: twin, lockDirectory: lockDirectory, markerDirectory: markerDirectory,
            markerProcess: markerProcess)
    }
}
