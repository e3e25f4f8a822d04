extension RateLimit {
    /// Per client address, for `GET /authorize` (each request stores a pending sign-in before anyone signs in):
    /// bursts of 15, then 5 a second — far more than a browser signing in needs, far less than a flood.
    public static let defaultAuthorizePerClientAddress = RateLimit(burst: 15, perSecond: 5)
}
