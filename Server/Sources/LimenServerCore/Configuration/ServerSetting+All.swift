extension ServerSetting {
    /// Every plain setting, in the order they are applied and listed: a former name before its new one, and the
    /// metrics token before the metrics mode.
    public static let all: [ServerSetting] = [
        host, port, dataDirectory, issuer, database, databasePoolSize, postRateLimit, signInRateLimit,
        authorizeRateLimit, signUp, metricsToken, metrics, trustedProxies, resources, flows, mailURL, mailFrom,
        mailCAFile, mailWebhookSecret, emailCodeLength, emailCodeMailBudget, emailCodeTryBudget, smsURL,
        smsWebhookSecret, smsCountries, smsCodeLength, accessTokenLifetime, idTokenLifetime, refreshTokenLifetime,
        refreshReuseGrace, grantMaxLifetime, anonymousUserLifetime, accountDeletionMaxAge, accountChangeMaxAge,
        dpopNonceRequired, dpopProofMaxAge, dpopReplayCacheSize,
        passwordHashLogN, passwordHashParallelism, headerReadTimeout, idleTimeout, webAuthnRelyingPartyID,
        webAuthnRelyingPartyName, webAuthnOrigins, auditRetention, allowHTTPWebhooks, webhookTimeout, otelEndpoint,
    ]
}
