import Foundation

extension ServerSetting {
    /// `webauthn_rp_id`: the domain passkeys are scoped to.
    static let webAuthnRelyingPartyID = ServerSetting(
        "webauthn_rp_id",
        help: "The domain passkeys are scoped to (default: the issuer's host); the origins must be on it.",
    ) { value, configuration throws(ConfigurationError) in
        let id = value.text.lowercased()
        guard WebAuthnSettings.isRelyingPartyID(id) else {
            throw value.refused("expected a domain like example.com (no scheme, port or path)")
        }
        configuration.webAuthn.relyingPartyID = id
    }

    /// `webauthn_rp_name`: the name authenticators show with a passkey.
    static let webAuthnRelyingPartyName = ServerSetting(
        "webauthn_rp_name",
        help: "The name authenticators show with a passkey.",
        default: "Limen"
    ) { value, configuration throws(ConfigurationError) in
        guard (1...64).contains(value.text.count) else { throw value.refused("expected 1 to 64 characters") }
        configuration.webAuthn.relyingPartyName = value.text
    }

    /// `webauthn_origins`: the origins passkey ceremonies may run on.
    static let webAuthnOrigins = ServerSetting(
        "webauthn_origins",
        help: "The origins passkey ceremonies may run on (default: the issuer's): https:// origins on the RP ID "
            + "(an app's associated domain), http:// on loopback, android:apk-key-hash:….",
        isList: true
    ) { value, configuration throws(ConfigurationError) in
        var origins: [String] = []
        for item in value.items {
            guard let origin = WebAuthnSettings.origin(parsing: item) else {
                throw value.refused(
                    "expected https://host[:port], http:// on loopback, or android:apk-key-hash:…", showing: item)
            }
            origins.append(origin)
        }
        configuration.webAuthn.origins = origins
    }
}

extension ServerConfiguration {
    /// Refuses passkey origins that are not on the RP ID (or, with no origins set, an RP ID the issuer is not on),
    /// naming the setting to change.
    func checkWebAuthn(given: [String: SettingValue]) throws(ConfigurationError) {
        let relyingParty = webAuthn.relyingParty(issuer: issuer(boundPort: port))
        let setting = webAuthn.origins.isEmpty ? ServerSetting.webAuthnRelyingPartyID : .webAuthnOrigins
        for origin in relyingParty.origins.sorted() {
            guard let reason = WebAuthnSettings.mismatch(of: origin, relyingPartyID: relyingParty.id) else { continue }
            throw given[setting.fileKey]?.refused(reason)
                ?? ConfigurationError(key: setting.fileKey, value: "(not set)", reason: reason)
        }
    }
}
