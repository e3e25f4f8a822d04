import Crypto
import Foundation
import LimenWire

/// A sign-in through an upstream provider on its way: what the callback needs to finish it (the pending Limen request,
/// the `nonce` and the PKCE verifier), stored until the callback or ten minutes (``lifetime``), and used once.
///
/// It is kept as a flow interaction of the hosted pages (so neither `/flows/interactions` nor a new table is
/// involved, and the expiry sweeper removes it): keyed by the SHA-256 of `federation.` and the `state` sent upstream,
/// its content sealed with AES-GCM under a key derived from the `state` (HKDF-SHA256). The store alone therefore holds
/// neither the pending request's identifier nor the verifier: both need the `state` the browser brings back.
struct UpstreamAttempt: Sendable, Equatable, Codable {
    /// How long the person has to sign in upstream.
    static let lifetime: TimeInterval = 600

    /// The upstream provider's ``IdentityProvider/id``.
    var providerID: String
    /// The pending Limen request the sign-in is for (``PendingAuthorization/id``).
    var requestID: String
    /// The `nonce` sent; the ID token must carry it.
    var nonce: String
    /// The PKCE verifier of the challenge sent.
    var codeVerifier: String

    private enum CodingKeys: String, CodingKey {
        case providerID = "provider"
        case requestID = "request"
        case nonce
        case codeVerifier = "code_verifier"
    }

    /// The flow name under which attempts with provider `id` are stored.
    static func flowName(providerID id: String) -> String { "federation:\(id)" }

    /// Stores the attempt for `state` (the pending request's client and the hosted-page request with it).
    func store(state: String, pending: PendingAuthorization, in store: any Store, now: Date) async throws(StorageError)
    {
        let expiresAt = min(now.addingTimeInterval(Self.lifetime), pending.record.expiresAt)
        try await store.insertFlowInteraction(
            FlowInteractionRecord(
                idHash: Self.idHash(state: state), flow: Self.flowName(providerID: providerID), node: "callback",
                clientID: pending.client.id,
                request: FlowInteractionRecord.encode(FlowRequest(hostedPageFor: pending, guest: nil)),
                context: sealed(state: state), createdAt: now, expiresAt: expiresAt))
    }

    /// An attempt found by its `state`, with the record it is stored as.
    struct Stored: Sendable {
        /// The attempt.
        let attempt: UpstreamAttempt
        /// Its record, through which it is used once.
        let record: FlowInteractionRecord
    }

    /// The attempt `state` names if it waits for provider `providerID`'s callback (unexpired, unused).
    static func find(state: String, providerID: String, in store: any Store, now: Date) async throws(StorageError)
        -> Stored?
    {
        guard let record = try await store.flowInteraction(idHash: idHash(state: state)),
            record.status == .active, record.expiresAt > now, record.flow == flowName(providerID: providerID),
            let attempt = open(record.context, state: state), attempt.providerID == providerID
        else { return nil }
        return Stored(attempt: attempt, record: record)
    }

    /// Marks the `stored` attempt used; `false` when another callback used it first (a replay).
    static func use(_ stored: Stored, in store: any Store) async throws(StorageError) -> Bool {
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
