import LimenServerStorage

extension FlowEngine {
    /// The `user.signed_in` record of `context`'s completed sign-in with `client`, from `origin`: the one place every
    /// flow's sign-in (native or hosted page) is recorded, written with the change that ends it (the code, or the
    /// interaction marked succeeded).
    func signInRecords(_ context: FlowContext, client: String, origin: RequestOrigin) -> [SecurityEventRecord] {
        guard let subject = context.subject else { return [] }
        let method = context.method ?? SignInMethod(context.methods)
        let event = SecurityEvent(
            .userSignedIn, user: subject, client: client, details: method.map { .signIn(method: $0) } ?? .none)
        return services.accounts.events.records([event], from: origin)
    }
}

extension SignInMethod {
    /// The method an `amr` tells, for a sign-in whose first step declared none (one stored by an earlier version):
    /// `nil` for another provider's sign-in, whose `fed` does not say which.
    init?(_ methods: AuthenticationMethods) {
        if methods.contains(.hardwareKey) || methods.contains(.softwareKey) {
            self = .passkey
        } else if methods.contains(.sms) {
            self = .phoneCode
        } else if methods.contains(.password) {
            self = .password
        } else if methods.contains(.oneTimePassword) {
            self = .emailCode
        } else if methods.contains(.federated) {
            return nil
        } else {
            self = .anonymous
        }
    }
}
