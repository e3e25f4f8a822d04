import Crypto
import Foundation
import LimenServerStorage
import LimenWire

/// A sign-in through an upstream provider on its way: what the callback needs to finish it (the pending Limen request
/// of the hosted pages, or the native flow interaction and the `IDP` button pressed in it; the `nonce` and the PKCE
/// verifier), stored until the callback or ten minutes (``lifetime``), and used once.
///
/// It is kept as a flow interaction of the hosted pages (so neither `/flows/interactions` nor a new table is
/// involved, and the expiry sweeper removes it): keyed by the SHA-256 of `federation.` and the `state` sent upstream,
/// its content sealed with AES-GCM under a key derived from the `state` (HKDF-SHA256). The store alone therefore holds
/// neither the pending request's identifier nor the verifier: both need the `state` the browser brings back.
package struct UpstreamAttempt: Sendable, Equatable, Codable {
    /// How long the person has to sign in upstream.
    package static let lifetime: TimeInterval = 600

    /// The upstream provider's ``IdentityProvider/id``.
    package var providerID: String
    /// The pending Limen request of the hosted pages the sign-in is for (``PendingAuthorization/id``).
    package var requestID: String?
    /// The native flow interaction the sign-in is for (its ID), when not a pending request.
    package var interactionID: String?
    /// In ``interactionID``, the key of the `IDP` collector that was pressed.
    package var action: String?
    /// The `nonce` sent; the ID token must carry it.
    package var nonce: String
    /// The PKCE verifier of the challenge sent.
    package var codeVerifier: String

    private enum CodingKeys: String, CodingKey {
        case providerID = "provider"
        case requestID = "request"
        case interactionID = "interaction"
        case action
        case nonce
        case codeVerifier = "code_verifier"
    }

    /// What the sign-in is for.
    package enum Target: Sendable, Equatable {
        /// A pending request of the hosted pages (``PendingAuthorization/id``).
        case request(String)
        /// A native flow interaction (its ID), and the key of the `IDP` collector pressed in it.
        case interaction(id: String, action: String)
    }

    /// An attempt for `target`.
    package init(providerID: String, target: Target, nonce: String, codeVerifier: String) {
        (self.providerID, self.nonce, self.codeVerifier) = (providerID, nonce, codeVerifier)
        switch target {
        case .request(let id): requestID = id
        case .interaction(let id, let action): (interactionID, self.action) = (id, action)
        }
    }

    /// What the sign-in is for; `nil` for a corrupt attempt.
    package var target: Target? {
        if let requestID { return .request(requestID) }
        guard let interactionID, let action else { return nil }
        return .interaction(id: interactionID, action: action)
    }

    /// Whether `record` is an attempt rather than a flow interaction (so never continued as one).
    package static func isAttempt(_ record: FlowInteractionRecord) -> Bool {
        record.flow.hasPrefix("federation:")
    }

    /// The flow name under which attempts with provider `id` are stored.
    static func flowName(providerID id: String) -> String { "federation:\(id)" }

    /// Where the person signs in from: what the attempt is stored with.
    package struct Origin: Sendable {
        /// The client the sign-in is for.
        package var clientID: String
        /// Its authorization request (a hosted page's is marked so: never continued as a native interaction).
        package var request: FlowRequest
        /// When the request or interaction expires: the attempt does not outlive it.
        package var expiresAt: Date

        /// Makes it of its parts.
        package init(clientID: String, request: FlowRequest, expiresAt: Date) {
            self.clientID = clientID
            self.request = request
            self.expiresAt = expiresAt
        }
    }

    /// Stores the attempt for `state`, made from `origin`.
    package func store(state: String, origin: Origin, in store: any FlowInteractionStore, now: Date)
        async throws(StorageError)
    {
        try await store.insertFlowInteraction(
            FlowInteractionRecord(
                idHash: Self.idHash(state: state), flow: Self.flowName(providerID: providerID), node: "callback",
                clientID: origin.clientID, request: FlowInteractionRecord.encode(origin.request),
                context: sealed(state: state), createdAt: now,
                expiresAt: min(now.addingTimeInterval(Self.lifetime), origin.expiresAt)))
    }

    /// An attempt found by its `state`, with the record it is stored as.
    package struct Stored: Sendable {
        /// The attempt.
        package let attempt: UpstreamAttempt
        /// Its record, through which it is used once.
        package let record: FlowInteractionRecord
    }

    /// The attempt `state` names if it waits for provider `providerID`'s callback (unexpired, unused).
    package static func find(state: String, providerID: String, in store: any FlowInteractionStore, now: Date)
        async throws(StorageError)
        -> Stored?
    {
        guard let record = try await store.flowInteraction(idHash: idHash(state: state)),
            record.status == .active, record.expiresAt > now, record.flow == flowName(providerID: providerID),
            let attempt = open(record.context, state: state), attempt.providerID == providerID
        else { return nil }
        return Stored(attempt: attempt, record: record)
    }

    /// Marks the `stored` attempt used; `false` when another callback used it first (a replay).
    package static func use(_ stored: Stored, in store: any FlowInteractionStore) async throws(StorageError) -> Bool {
        var used = stored.record
        (used.status, used.revision) = (.succeeded, stored.record.revision + 1)
        return try await store.updateFlowInteraction(used)
    }

    private static func idHash(state: String) -> Data {
        RandomIdentifier.hash("federation." + state)
    }

    private static func key(state: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(state.utf8)), info: Data("limen.federation.attempt".utf8),
            outputByteCount: 32)
    }

    /// The attempt as JSON sealed under the `state`'s key (empty, so never opened, should sealing fail).
    private func sealed(state: String) -> Data {
        let json = FlowInteractionRecord.encode(self)
        return (try? AES.GCM.seal(json, using: Self.key(state: state)).combined) ?? Data()
    }

    private static func open(_ sealed: Data, state: String) -> UpstreamAttempt? {
        guard let box = try? AES.GCM.SealedBox(combined: sealed),
            let json = try? AES.GCM.open(box, using: key(state: state))
        else { return nil }
        return try? JSONDecoder().decode(UpstreamAttempt.self, from: json)
    }
}
