/// The server's rate limiters, made once from its configuration and shared by its routes; with PostgreSQL (several
/// nodes may share the database) each counts what it admits for ``RateLimitSharing``.
public struct RateLimiters: Sendable {
    /// Every POST (`post_rate_limit`).
    public let post: RateLimiter?
    /// Sign-in and sign-up POSTs (`sign_in_rate_limit`).
    public let signIn: RateLimiter?
    /// `/authorize` and the starts of flows (`authorize_rate_limit`).
    public let authorize: RateLimiter?

    /// The limiters `configuration` turns on.
    public init(configuration: ServerConfiguration) {
        let isShared = configuration.databaseURL != nil
        post = configuration.postRateLimit.map { RateLimiter(limit: $0, isShared: isShared) }
        signIn = configuration.signInRateLimit.map { RateLimiter(limit: $0, isShared: isShared) }
        authorize = configuration.authorizeRateLimit.map { RateLimiter(limit: $0, isShared: isShared) }
    }

    /// The limiters turned on and shared, by the name their counts carry in the store.
    var shared: [(name: String, limiter: RateLimiter)] {
        [("post", post), ("sign_in", signIn), ("authorize", authorize)].compactMap { name, limiter in
            limiter.flatMap { $0.isShared ? (name, $0) : nil }
        }
    }
}
