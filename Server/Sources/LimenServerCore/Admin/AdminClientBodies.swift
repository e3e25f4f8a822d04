import Foundation
import LimenServerStorage
import LimenServerWire

extension AdminClientRequest {
    /// The client record it asks for, with its `branding`, and the secret of a confidential client; each refusal names
    /// the member at fault (`branding.logo_uri`, say).
    package func record(now: Date) throws(AdminError) -> (client: ClientRecord, secret: String?) {
        let registration = try registration()
        let branding = try branding?.branding(in: CodingKeys.branding.stringValue)
        do throws(ClientRegistrationError) {
            var (client, secret) = try registration.record(now: now)
            client.branding = branding
            return (client, secret)
        } catch {
            throw .client(error, field: error.member(in: registration))
        }
    }

    /// The registration it asks for: confidential unless `kind` is `public` or the client is native.
    private func registration() throws(AdminError) -> ClientRegistration {
        let native = native ?? false
        let recordKind: ClientRecord.Kind
        switch kind {
        case nil: recordKind = native ? .public : .confidential
        case let name?:
            guard let parsed = ClientRecord.Kind(rawValue: name) else {
                throw .invalidRequest("kind must be public or confidential")
            }
            recordKind = parsed
        }
        return ClientRegistration(
            id: clientID,
            name: clientName,
            kind: recordKind,
            isNative: native,
            isFirstParty: firstParty ?? false,
            redirectURIs: redirectURIs ?? [],
            postLogoutRedirectURIs: postLogoutRedirectURIs ?? [],
            idTokenSignedResponseAlg: idTokenSignedResponseAlg ?? SigningAlgorithm.es256.rawValue,
            accessTokenLifetime: accessTokenTTL.map(TimeInterval.init),
            refreshTokenLifetime: refreshTokenTTL.map(TimeInterval.init),
            allowsNoPKCE: allowNoPKCE ?? false,
            emailLinkURI: emailLinkURI,
            grantTypes: grantTypes,
            isAppToAppHost: appToAppHost ?? false,
            requiresDPoP: dpopBoundAccessTokens ?? false,
            requiredACR: requireACR
        )
    }
}

extension ClientRegistrationError {
    /// The request member it is about, as named on the wire, in an admin request for `registration`.
    package func member(in registration: ClientRegistration) -> String {
        switch self {
        case .invalidClientID, .reservedClientID, .alreadyExists: "client_id"
        case .noRedirectURI: "redirect_uris"
        case .invalidRedirectURI(let uri, _):
            registration.postLogoutRedirectURIs.contains(uri) && !registration.redirectURIs.contains(uri)
                ? "post_logout_redirect_uris" : "redirect_uris"
        case .unsupportedAlgorithm: "id_token_signed_response_alg"
        case .nativeClientWithSecret: "kind"
        case .publicClientWithoutPKCE: "allow_no_pkce"
        case .invalidTokenLifetime(let field, _): field
        case .invalidEmailLinkURI: "email_link_uri"
        case .unsupportedGrantType: "grant_types"
        case .appToAppHostNotFirstPartyNative: "app2app_host"
        case .unsupportedACR: "require_acr"
        }
    }
}

extension AdminClientPatch {
    /// `client` with the patch applied, checked by every rule a registration is; a refusal names the member at fault.
    package func applied(to client: ClientRecord) throws(AdminError) -> ClientRecord {
        var edit = ClientRegistration(client)
        if let clientName { edit.name = clientName }
        if let redirectURIs { edit.redirectURIs = redirectURIs }
        if let postLogoutRedirectURIs { edit.postLogoutRedirectURIs = postLogoutRedirectURIs }
        if let accessTokenTTL { edit.accessTokenLifetime = accessTokenTTL.map(TimeInterval.init) }
        if let refreshTokenTTL { edit.refreshTokenLifetime = refreshTokenTTL.map(TimeInterval.init) }
        do throws(ClientRegistrationError) {
            return try edit.record(replacing: client)
        } catch {
            throw .client(error, field: error.member(in: edit))
        }
    }

    /// The names of the settings it gives, as `admin.client_updated` records them.
    package var changedFields: Set<SecurityEventDetails.ChangedField> {
        let given: [(SecurityEventDetails.ChangedField, Bool)] = [
            (.name, clientName != nil), (.redirectURIs, redirectURIs != nil),
            (.postLogoutRedirectURIs, postLogoutRedirectURIs != nil), (.accessTokenTTL, accessTokenTTL != nil),
            (.refreshTokenTTL, refreshTokenTTL != nil),
        ]
        return Set(given.filter(\.1).map(\.0))
    }
}

extension AdminClientBrandingRequest {
    /// The branding it asks for, checked; `nil` when every member is left out (the branding is removed).
    /// - Parameter parent: The member this body is the value of, which a refusal names the field under
    ///   (`branding.theme`); `nil` when it is the whole request body.
    package func branding(in parent: String? = nil) throws(AdminError) -> ClientBranding? {
        do throws(ClientBrandingError) {
            guard let theme = ClientBranding.Theme(rawValue: theme ?? ClientBranding.Theme.auto.rawValue) else {
                throw .invalid(field: CodingKeys.theme.stringValue, "use light, dark or auto")
            }
            let branding = ClientBranding(
                displayName: displayName, logoURL: logoURI, accentColor: accentColor, theme: theme)
            guard branding != ClientBranding() else { return nil }
            return try branding.validated()
        } catch {
            // "field: rule", under the parent member when there is one.
            throw .invalidRequest(parent.map { "\($0).\(error.description)" } ?? error.description)
        }
    }
}

/// A client as the admin API shows it: everything but its secret's hash.
package struct AdminClientResource: Encodable, Sendable {
    package var clientID: String
    package var clientName: String
    package var kind: String
    package var native: Bool
    package var firstParty: Bool
    package var redirectURIs: [String]
    package var postLogoutRedirectURIs: [String]
    package var grantTypes: [String]
    package var idTokenSignedResponseAlg: String
    package var accessTokenTTL: Int?
    package var refreshTokenTTL: Int?
    package var allowNoPKCE: Bool
    package var branding: ClientBranding?
    package var emailLinkURI: String?
    package var appToAppHost: Bool
    package var dpopBoundAccessTokens: Bool
    package var requireACR: String?
    package var createdAt: Int
    /// Only in the answer to the registration of a confidential client: the secret, shown this once.
    package var clientSecret: String?

    package enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case clientName = "client_name"
        case kind, native
        case firstParty = "first_party"
        case redirectURIs = "redirect_uris"
        case postLogoutRedirectURIs = "post_logout_redirect_uris"
        case grantTypes = "grant_types"
        case idTokenSignedResponseAlg = "id_token_signed_response_alg"
        case accessTokenTTL = "access_token_ttl"
        case refreshTokenTTL = "refresh_token_ttl"
        case allowNoPKCE = "allow_no_pkce"
        case branding
        case emailLinkURI = "email_link_uri"
        case appToAppHost = "app2app_host"
        case dpopBoundAccessTokens = "dpop_bound_access_tokens"
        case requireACR = "require_acr"
        case createdAt = "created_at"
        case clientSecret = "client_secret"
    }

    /// The resource of `client`, with `secret` when it was just generated.
    package init(_ client: ClientRecord, secret: String? = nil) {
        clientID = client.id
        clientName = client.name
        kind = client.kind.rawValue
        native = client.isNative
        firstParty = client.isFirstParty
        redirectURIs = client.redirectURIs
        postLogoutRedirectURIs = client.postLogoutRedirectURIs
        grantTypes = client.grantTypes.map(\.rawValue)
        idTokenSignedResponseAlg = client.idTokenSignedResponseAlg.rawValue
        accessTokenTTL = client.accessTokenLifetime.map { Int($0) }
        refreshTokenTTL = client.refreshTokenLifetime.map { Int($0) }
        allowNoPKCE = client.allowsNoPKCE
        branding = client.branding
        emailLinkURI = client.emailLinkURI
        appToAppHost = client.isAppToAppHost
        dpopBoundAccessTokens = client.requiresDPoP
        requireACR = client.requiredACR
        createdAt = Int(client.createdAt.timeIntervalSince1970)
        clientSecret = secret
    }
}

/// `GET /admin/clients`.
package struct AdminClientList: Encodable, Sendable {
    package var clients: [AdminClientResource]

    /// Makes it of its parts.
    package init(clients: [AdminClientResource]) {
        self.clients = clients
    }
}

/// `POST /admin/clients/{id}/rotate-secret`: the client's new secret, shown this once.
package struct AdminClientSecret: Encodable, Sendable {
    package var clientID: String
    package var clientSecret: String

    package enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case clientSecret = "client_secret"
    }

    /// Makes it of its parts.
    package init(clientID: String, clientSecret: String) {
        (self.clientID, self.clientSecret) = (clientID, clientSecret)
    }
}
