import LimenServerStorage

extension FlowRequest {
    /// The request of the hosted pages' work for `pending` (never continued through `/flows/interactions`), with the
    /// guest signed in in the browser, whom ``AccountLinking``'s cases apply to with migration allowed.
    package init(hostedPageFor pending: PendingAuthorization, guest: String?) {
        let record = pending.record
        self.init(
            redirectURI: record.redirectURI, scope: record.scope, state: record.state, nonce: record.nonce,
            codeChallenge: record.codeChallenge ?? "", loginHint: record.loginHint, uiLocales: record.uiLocales,
            acrValues: record.acrValues, requiredLevel: pending.requiredLevel, hostedPage: true, signedInSubject: guest,
            allowMigration: guest == nil ? nil : true)
    }
}
