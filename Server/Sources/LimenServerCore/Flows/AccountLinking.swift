import Foundation
import LimenServerStorage
import LimenWire

/// RxFireAuth's case table, in one place for every sign-in flow: what a flow does with the account its credentials
/// lead to, given who is signed in on the device (the start's bearer token, ``FlowRequest/signedInSubject``).
///
/// 1. A guest is signed in and the credential belongs to nobody: it is linked to the guest (same user ID, data kept,
///    the level rises) — ``link(email:password:name:emailVerified:request:)``, or for an external identity (Sign in
///    with Apple) ``identified(_:as:request:context:)``.
/// 2. A guest is signed in and the credential belongs to another account: `migration_required`, unless the start said
///    `allow_migration`; then the account is signed in and the guest deleted when the interaction completes (its
///    profile fields merged into the account's first with `true`) — ``identified(_:request:context:credential:)``.
/// 3. A user with an identity is signed in and the credential belongs to nobody: linked to them where their account
///    can hold it, else refused with `account_has_email` (an account has one address).
/// 4. A user with an identity is signed in and the credential belongs to another account: `credential_in_use`, nothing
///    changed.
/// 5. Nobody is signed in: the account is signed in, or created.
package struct AccountLinking: Sendable {
    /// The error detail code of case 2.
    static let migrationRequired = "migration_required"
    /// The error detail code of case 4.
    static let credentialInUse = "credential_in_use"
    /// The error detail code of case 3 when the signed-in account has an address already.
    static let accountHasEmail = "account_has_email"

    /// The credential a flow found, as its refusals name it.
    package struct Credential: Sendable {
        /// The collector the refusal's detail is about.
        package var key: String
        /// What a sentence calls it ("email address").
        package var name: String

        /// How a sentence starts with it ("This email address").
        var noun: String { "This \(name)" }

        /// An email address (with or without a password).
        package static let email = Credential(key: "email", name: "email address")
        /// An Apple ID, proved by the identity token of Sign in with Apple.
        package static let apple = Credential(key: "identity_token", name: "Apple ID")
        /// A phone number, proved by a code sent to it by SMS.
        package static let phone = Credential(key: "phone", name: "phone number")
    }

    /// The store that holds the users, and the account services.
    package let services: FlowServices

    /// Makes it of its parts.
    package init(services: FlowServices) {
        self.services = services
    }

    /// Who is signed in on the device, as the store has them now; `nil` when nobody is (or they were deleted since).
    package func signedIn(_ request: FlowRequest) async throws(StorageError) -> UserRecord? {
        guard let subject = request.signedInSubject else { return nil }
        return try await services.store.user(id: subject)
    }

    /// The context once the credentials (`credential`, an email address unless said) identified `user` (cases 2, 4
    /// and 5), or the refusal.
    package func identified(
        _ user: UserRecord,
        request: FlowRequest,
        context: FlowContext,
        credential: Credential = .email
    ) async throws(StorageError) -> Result<FlowContext, FlowRefusal> {
        var context = context
        (context.subject, context.createdUser, context.replacedGuest) = (user.id, false, nil)
        guard let current = try await signedIn(request), current.id != user.id else { return .success(context) }
        guard current.isAnonymous else {
            return .failure(
                Self.refusal(
                    Self.credentialInUse,
                    "This sign-in belongs to another account. Sign out first to use that account.", about: credential))
        }
        guard request.allowMigration != nil else {
            return .failure(
                Self.refusal(
                    Self.migrationRequired,
                    "\(credential.noun) has an account. Sign in to it to continue; what you did as a guest can be "
                        + "moved to it.", about: credential))
        }
        context.replacedGuest = current.id
        return .success(context)
    }

    /// Links an address nobody has (with a password and a name, if given, checked as a sign-up checks them) to the
    /// guest signed in on the device (case 1), or answers case 3; `nil` when nobody is signed in, so that the caller
    /// creates the account (case 5). The password's hashing holds at most `origin`'s share of the queue; a link is
    /// recorded as `identity.linked` from `origin`, in the same unit.
    package func link(
        email: String,
        password: String?,
        name: String?,
        emailVerified: Bool,
        request: FlowRequest,
        from origin: RequestOrigin
    ) async throws(AccountError) -> Result<UserRecord, FlowRefusal>? {
        let current: UserRecord?
        do {
            current = try await signedIn(request)
        } catch {
            throw .storage(error)
        }
        guard let current else { return nil }
        guard current.isAnonymous else {
            return .failure(
                Self.refusal(
                    Self.accountHasEmail,
                    "You are signed in to an account that has an email address. Sign out first to create another."))
        }
        let (checkedEmail, checkedName, passwordHash) = try await services.accounts.checkedCredentials(
            email: email, password: password, name: name, from: origin.address)
        let linkedEmail = SecurityEvent(.identityLinked, user: current.id, details: .identity(IdentityRecord.emailKind))
        let linked: UserRecord?
        do {
            linked =
                try await services.store.linkEmail(
                    checkedEmail, passwordHash: passwordHash, name: checkedName, emailVerified: emailVerified,
                    toAnonymousUser: current.id,
                    recording: services.accounts.events.records([linkedEmail], from: origin))
                ? try await services.store.user(id: current.id) : nil
        } catch {
            throw .storage(error)
        }
        guard let linked else {
            // Another upgrade of this guest won, or the address was taken meanwhile.
            return .failure(Self.refusal(Self.credentialInUse, "This email address cannot be linked to this account."))
        }
        return .success(linked)
    }

    /// Deletes the guest the completed interaction replaced, first merging their profile's unencrypted fields into
    /// the account's where it has none of that name when the start allowed migration; its deletion recorded from
    /// `origin`.
    package func replaceGuest(in context: FlowContext, request: FlowRequest, origin: RequestOrigin)
        async throws(StorageError)
    {
        guard let guest = context.replacedGuest, let subject = context.subject, guest != subject else { return }
        if request.allowMigration == true { try await mergeProfile(of: guest, into: subject) }
        try await services.accounts.delete(userID: guest, origin: origin)
    }

    /// The guest's unencrypted profile fields that the account lacks, written into the account's profile (a field
    /// encrypted under the guest's device key would not decrypt for the account, so it is not carried).
    private func mergeProfile(of guest: String, into subject: String) async throws(StorageError) {
        guard let source = try await services.store.profile(userID: guest), !source.data.isEmpty else { return }
        let schema = try await services.profileSchemas.schema(in: services.store)
        for _ in 0..<3 {
            let target = try await services.store.profile(userID: subject)
            var data = target?.data ?? [:]
            for (name, value) in source.data where data[name] == nil && schema.fields[name]?.isEncrypted != true {
                data[name] = value
            }
            guard data != target?.data else { return }
            if try await services.store.writeProfile(
                userID: subject, data: data, expectedRevision: target?.revision ?? 0, now: services.now()) != nil
            {
                return
            }
        }
    }

    /// An error node's refusal naming the field of `credential` (the `email` field unless said) with `code`.
    package static func refusal(_ code: String, _ message: String, about credential: Credential = .email) -> FlowRefusal
    {
        FlowRefusal(message: message, details: [.init(key: credential.key, code: code, message: message)])
    }
}
