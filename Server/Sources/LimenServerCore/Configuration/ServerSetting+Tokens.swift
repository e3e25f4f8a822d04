import Foundation
import LimenServerWire

extension ServerSetting {
    /// The examples of a lifetime's error.
    private static let lifetimeExamples = "600, 45s, 10m, 12h or 30d"

    /// `access_token_ttl`: how long an access token lives.
    static let accessTokenLifetime = duration(
        "access_token_ttl", help: "Access token lifetime, like 600 or 10m", default: "10m",
        in: TokenLifetimes.accessTokenRange, like: lifetimeExamples, setting: \.tokenLifetimes.accessToken)

    /// `id_token_ttl`: how long an ID token lives.
    static let idTokenLifetime = duration(
        "id_token_ttl", help: "ID token lifetime", default: "5m",
        in: TokenLifetimes.idTokenRange, like: lifetimeExamples, setting: \.tokenLifetimes.idToken)

    /// `refresh_token_ttl`: how long a refresh token lives.
    static let refreshTokenLifetime = duration(
        "refresh_token_ttl", help: "Refresh token lifetime, like 30d", default: "30d",
        in: TokenLifetimes.refreshTokenRange, like: lifetimeExamples, setting: \.tokenLifetimes.refreshToken)

    /// `refresh_reuse_grace`: how long a rotated refresh token may be retried with the same answer.
    static let refreshReuseGrace = duration(
        "refresh_reuse_grace", help: "How long a rotated refresh token may be retried", default: "10s",
        in: TokenLifetimes.refreshReuseGraceRange, like: lifetimeExamples,
        setting: \.tokenLifetimes.refreshReuseGrace)

    /// `grant_max_lifetime`: how long a grant lives however often it is refreshed.
    static let grantMaxLifetime = duration(
        "grant_max_lifetime", help: "How long a grant lives however often it is refreshed", default: "90d",
        in: TokenLifetimes.grantMaxLifetimeRange, like: lifetimeExamples, setting: \.tokenLifetimes.grantMaxLifetime)

    /// `anonymous_user_ttl`: how long an anonymous user is kept after their last refresh.
    static let anonymousUserLifetime = duration(
        "anonymous_user_ttl", help: "How long an anonymous user is kept after their last refresh", default: "30d",
        in: TokenLifetimes.anonymousUserRange, like: lifetimeExamples, setting: \.tokenLifetimes.anonymousUser)

    /// `account_deletion_max_age`: the former name of ``accountChangeMaxAge``, still read (before it, so that the new
    /// name wins when both are given).
    static let accountDeletionMaxAge = duration(
        "account_deletion_max_age", help: "The former name of account_change_max_age", default: "5m",
        in: TokenLifetimes.accountChangeMaxAgeRange, like: lifetimeExamples, isHidden: true,
        setting: \.tokenLifetimes.accountChangeMaxAge)

    /// `account_change_max_age`: how recent a sign-in must be for an account change.
    static let accountChangeMaxAge = duration(
        "account_change_max_age",
        help: "How recent a sign-in must be to link or unlink an identity or delete the account", default: "5m",
        in: TokenLifetimes.accountChangeMaxAgeRange, like: lifetimeExamples,
        setting: \.tokenLifetimes.accountChangeMaxAge)

    /// `dpop_nonce_required`: whether DPoP proofs must carry a nonce the server handed out.
    static let dpopNonceRequired = ServerSetting(
        "dpop_nonce_required",
        help: "Whether DPoP proofs must carry a nonce the server handed out (DPoP-Nonce): on or off.", default: "off"
    ) { value, configuration throws(ConfigurationError) in
        switch value.text.lowercased() {
        case "on", "true", "yes": configuration.dpopNonceRequired = true
        case "off", "false", "no": configuration.dpopNonceRequired = false
        default: throw value.refused("expected on or off")
        }
    }

    /// `dpop_proof_max_age`: how long ago a DPoP proof's `iat` may be.
    static let dpopProofMaxAge = duration(
        "dpop_proof_max_age", help: "How long ago a DPoP proof may have been made (its iat)",
        default: DurationSetting.text(for: DPoPVerifier.IssuedAtWindow.defaultPast),
        in: dpopProofMaxAgeRange, like: "60, 30s or 2m", setting: \.dpopProofMaxAge)

    /// The values `dpop_proof_max_age` may take: at least a slow request's time, at most RFC 9449's few minutes.
    static let dpopProofMaxAgeRange: ClosedRange<TimeInterval> = 10...300

    /// `dpop_replay_cache_size`: how many DPoP proofs' `jti`s a node remembers at most.
    static let dpopReplayCacheSize = ServerSetting(
        "dpop_replay_cache_size",
        help:
            "How many DPoP proofs a node remembers to refuse replays, \(bounds(dpopReplayCacheSizes)) (about 46 bytes "
            + "each); when full, proofs get 503 until some expire.",
        default: "\(DPoPReplayCache.defaultCapacity)"
    ) { value, configuration throws(ConfigurationError) in
        configuration.dpopReplayCacheSize = try value.integer(
            in: dpopReplayCacheSizes, expected: "a number of remembered proofs")
    }

    /// The values `dpop_replay_cache_size` may take: from a test's thousand to about 1 GB.
    static let dpopReplayCacheSizes = 1_000...20_000_000

    /// `password_hash_log_n`: log2 of scrypt's N for new password hashes.
    static let passwordHashLogN = ServerSetting(
        "password_hash_log_n",
        help: "log2 of scrypt's N for new and changed passwords, \(bounds(PasswordHasher.Parameters.settableLogN)).",
        default: "17"
    ) { value, configuration throws(ConfigurationError) in
        configuration.passwordHashing.logN = try value.integer(
            in: PasswordHasher.Parameters.settableLogN, expected: "log2 of scrypt's N")
    }

    /// `password_hash_parallelism`: scrypt's parallelism p for new password hashes.
    static let passwordHashParallelism = ServerSetting(
        "password_hash_parallelism",
        help:
            "scrypt's parallelism p for new passwords, \(bounds(PasswordHasher.Parameters.settableParallelism)), at least "
            + "OWASP's for N.",
        default: "1"
    ) { value, configuration throws(ConfigurationError) in
        configuration.passwordHashing.parallelism = try value.integer(
            in: PasswordHasher.Parameters.settableParallelism, expected: "scrypt's parallelism")
    }
}
