import Foundation
import LimenServerStorage

extension AccountLinking {
    /// The error detail code of case 3 when the signed-in account has another identity of the same kind (another
    /// Apple ID): an account has one of each.
    static let accountHasIdentity = "account_has_identity"

    /// The context once an external `identity` (Sign in with Apple's, named by `credential`) identified its user by
    /// the five cases, or the refusal. The identity belongs to an account when it is linked to it, or with the
    /// issuer's `link_by_verified_email` when the issuer verified that account's verified address
    /// (``ExternalAccounts/holder(of:)``):
    ///
    /// - it belongs to an account: cases 2, 4 and 5 as for any credential (``identified(_:request:context:credential:)``),
    ///   the identity linked to that account only once they allow it;
    /// - it belongs to nobody and someone is signed in: linked to them (cases 1 and 3), with the address the issuer
    ///   verified when they have none and nobody has it, and a guest takes the name given; refused with
    ///   `account_has_identity` when they have another identity of that kind;
    /// - it belongs to nobody and nobody is signed in: a new account (``ExternalAccounts/signIn(_:)``: its name and
    ///   verified address); the caller checks first that sign-up is on (``makesAccount(for:request:)``).
    package func identified(
        _ identity: ExternalIdentity,
        as credential: Credential,
        request: FlowRequest,
        context: FlowContext,
        origin: RequestOrigin
    ) async throws(StorageError) -> Result<FlowContext, FlowRefusal> {
        let accounts = ExternalAccounts(store: services.store, events: services.accounts.events, now: services.now)
        let taken = Self.refusal(
            Self.credentialInUse, "\(credential.noun) cannot be linked to this account.", about: credential)
        if let holder = try await accounts.holder(of: identity) {
            let result = try await identified(holder.user, request: request, context: context, credential: credential)
            guard case .success = result, !holder.linked else { return result }
            // Linked by its verified address; another request may have linked the identity to someone else first.
            guard try await accounts.link(identity, to: holder.user.id, origin: origin).id == holder.user.id else {
                return .failure(taken)
            }
            try await services.notifier.notify(.identityLinked(credential.name), to: holder.user)
            return result
        }
        var context = context
        guard let current = try await signedIn(request) else {
            let (user, created) = try await accounts.signIn(identity, origin: origin)
            (context.subject, context.createdUser, context.replacedGuest) = (user.id, created, nil)
            return .success(context)
        }
        let kind = identity.identityKind
        if try await services.store.identities(userID: current.id).contains(where: { $0.kind == kind }) {
            return .failure(
                Self.refusal(
                    Self.accountHasIdentity,
                    "You are signed in to an account that has another \(credential.name). Sign out first to use this "
                        + "one.", about: credential))
        }
        let linked = try await accounts.link(identity, to: current.id, origin: origin)
        guard linked.id == current.id else { return .failure(taken) }
        if !current.isAnonymous { try await services.notifier.notify(.identityLinked(credential.name), to: current) }
        let adopted = try await accounts.adoptEmail(of: identity, by: linked)
        if current.isAnonymous, adopted.name == nil, let name = identity.name {
            var named = adopted
            named.name = name
            try await services.store.updateUser(named)
        }
        (context.subject, context.createdUser, context.replacedGuest) = (current.id, false, nil)
        return .success(context)
    }

    /// Whether ``identified(_:as:request:context:origin:)`` would make a new account for `identity`: nobody holds it and
    /// nobody is signed in.
    func makesAccount(for identity: ExternalIdentity, request: FlowRequest) async throws(StorageError) -> Bool {
        let accounts = ExternalAccounts(store: services.store, events: services.accounts.events, now: services.now)
        guard try await accounts.holder(of: identity) == nil else { return false }
        return try await signedIn(request) == nil
    }
}
