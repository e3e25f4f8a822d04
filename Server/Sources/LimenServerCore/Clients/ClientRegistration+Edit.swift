import Foundation
import LimenServerStorage
import LimenServerWire

extension ClientRegistration {
    /// The registration that asks for what `client` is: the start of an edit, which changes some of its members and
    /// checks the whole again (``record(replacing:)``).
    public init(_ client: ClientRecord) {
        self.init(
            id: client.id,
            name: client.name,
            kind: client.kind,
            isNative: client.isNative,
            isFirstParty: client.isFirstParty,
            redirectURIs: client.redirectURIs,
            postLogoutRedirectURIs: client.postLogoutRedirectURIs,
            idTokenSignedResponseAlg: client.idTokenSignedResponseAlg.rawValue,
            accessTokenLifetime: client.accessTokenLifetime,
            refreshTokenLifetime: client.refreshTokenLifetime,
            allowsNoPKCE: client.allowsNoPKCE,
            emailLinkURI: client.emailLinkURI,
            grantTypes: client.grantTypes.map(\.rawValue),
            isAppToAppHost: client.isAppToAppHost,
            requiresDPoP: client.requiresDPoP,
            requiredACR: client.requiredACR
        )
    }

    /// `client` as this registration asks for it, checked by every rule ``record(now:)`` checks a new client by; its
    /// secret, branding and creation time stay `client`'s.
    ///
    /// ```swift
    /// var edit = ClientRegistration(client)
    /// edit.redirectURIs = ["https://app.example/callback"]
    /// let changed = try edit.record(replacing: client)   // a bad redirect URI throws as at registration
    /// ```
    public func record(replacing client: ClientRecord) throws(ClientRegistrationError) -> ClientRecord {
        var edited = try checkedRecord(createdAt: client.createdAt)
        (edited.secretHash, edited.branding) = (client.secretHash, client.branding)
        return edited
    }
}
