import Foundation
import LimenOIDC

/// How a profile write changes the profile.
enum ProfileWriteKind: Sendable {
    /// `PUT`: the profile becomes exactly the given fields.
    case replace
    /// `PATCH` (RFC 7396 merge patch): the given fields change, the others stay.
    case merge
}

extension ProfileClient {
    /// Writes `values` (plaintext; `null` removes a field) as `kind` says, one write of this client at a time.
    ///
    /// The write names the last `ETag` this client saw in `If-Match`. When another writer got there first (`412`),
    /// the profile is read again: if that writer changed none of the fields this write changes, the same field-level
    /// change is applied once more on the new revision; otherwise, or when that fails too, nothing is written and
    /// ``ProfileError/conflict(fields:)`` says which fields.
    func writeProfile(_ values: [String: JSONValue], kind: ProfileWriteKind) async throws(LimenError) {
        let userID = try await session.signedInUserID()
        try await memory.writes.withLock { () async throws(LimenError) in
            try await self.writeProfile(values, kind: kind, userID: userID)
        }
    }

    private func writeProfile(_ values: [String: JSONValue], kind: ProfileWriteKind, userID: String)
        async throws(LimenError)
    {
        let schema = try await appSchema()
        var base: ProfileSnapshot
        if let known = await memory.snapshot(of: userID) {
            base = known
        } else {
            base = try await fetchProfile(of: userID)
        }
        let changes = kind == .merge ? values : await changes(from: base, to: values)
        let sent = try await encryptedFields(changes, schema: schema)
        var response = try await send(sent, kind: kind, onto: base)
        if response.status == 412 {
            let current = try await fetchProfile(of: userID)
            let changedElsewhere = sent.keys.filter { current.data[$0] != base.data[$0] }.sorted()
            guard changedElsewhere.isEmpty else { throw .profile(.conflict(fields: changedElsewhere)) }
            base = current
            response = try await send(sent, kind: kind, onto: base)
            if response.status == 412 { throw .profile(.conflict(fields: sent.keys.sorted())) }
        }
        guard response.isSuccess else { throw .profile(ProfileError(response: response)) }
        let written = try await keep(response, of: userID, schema: schema)
        do {
            try await publish(written, announce: true)
        } catch {
            // Written all the same; the next get() reports what this device cannot decrypt.
            events.emit(.userDataUpdated)
        }
    }

    /// The fields whose value `desired` changes from `base`'s (decrypted), each with its new value (`null` for a
    /// field `desired` leaves out): so an encrypted field that stays the same keeps its ciphertext.
    private func changes(from base: ProfileSnapshot, to desired: [String: JSONValue]) async -> [String: JSONValue] {
        var changes: [String: JSONValue] = [:]
        for name in Set(base.data.keys).union(desired.keys) {
            let wanted = desired[name] ?? .null
            guard let stored = base.data[name] else {
                if wanted != .null { changes[name] = wanted }
                continue
            }
            var current: JSONValue? = stored
            if let field = base.schema.fields[name], field.isEncrypted, case .string(let ciphertext) = stored {
                current = try? await decryptField(name, ciphertext, type: field.type)
            }
            if current != wanted { changes[name] = wanted }
        }
        return changes
    }

    /// Sends the fields `sent` (as stored: encrypted, `null` removing) as a `PUT` of `base`'s data with them applied,
    /// or as a `PATCH` of them alone; `If-Match` names `base`'s `ETag`.
    private func send(_ sent: [String: JSONValue], kind: ProfileWriteKind, onto base: ProfileSnapshot)
        async throws(LimenError) -> HTTPResponse
    {
        var headers = ["Accept": "application/json"]
        if let etag = base.etag { headers["If-Match"] = etag }
        let data: [String: JSONValue]
        switch kind {
        case .replace:
            headers["Content-Type"] = "application/json"
            data = base.data.merging(sent) { _, new in new }.filter { $0.value != .null }
        case .merge:
            headers["Content-Type"] = "application/merge-patch+json"
            data = sent
        }
        let body = Data(JSONValue.object(["data": .object(data)]).serialized())
        return try await session.authorizedRequest(
            HTTPRequest(
                method: kind == .replace ? "PUT" : "PATCH", url: url("v1/me/data"), headers: headers,
                body: body))
    }
}
