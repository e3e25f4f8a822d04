import Foundation
import Limen

/// The RxFireAuth migration article's examples, compiled with the tests.
func migratingFromRxFireAuthGuest(client: AuthClient) async throws {
    // snippet: rxfireauth-guest
    // userManager.loginAnonymously(): a guest at the first launch, the app usable at once
    await client.restore()
    if !client.state.auth.isAuthenticated {
        try await client.signInAnonymously()
    }
    // userManager.isAnonymous
    if client.state.auth.isAnonymous {
        print("guest \(client.state.user.id ?? "")")  // client.state.auth.level == .guest
    }
    // end snippet
}

/// Signing in, with the migration question when a guest is signed in.
func migratingFromRxFireAuthLogin(
    client: AuthClient,
    email: String,
    password: String,
    askToKeepGuestData: @Sendable () async -> Bool
) async throws {
    // snippet: rxfireauth-login
    // userManager.login(email:password:allowMigration: nil)
    let descriptor: LoginDescriptor
    do {
        descriptor = try await client.login(email: email, password: password, allowMigration: nil)
    } catch .account(.migrationRequired(let credentials)) {
        // UserError.migrationRequired(credentials): a guest is signed in and this is another account
        let keep = await askToKeepGuestData()
        // userManager.login(with: credentials, updateUserDisplayName: false, allowMigration: keep)
        descriptor = try await client.login(with: credentials, allowMigration: keep)
    }
    if descriptor.replacedAnonymousUser, let guest = descriptor.anonymousUserID {
        print("the guest \(guest) was replaced by \(descriptor.userID)")  // and deleted by the server
    }
    // end snippet
}

/// Turning the guest into an account with the mailed code.
func migratingFromRxFireAuthLink(
    client: AuthClient,
    email: String,
    password: String,
    askForCode: @Sendable () async -> String?
) async throws {
    // snippet: rxfireauth-link
    // userManager.linkAnonymousAccount(toEmail:password:): the server mails a code to prove the address
    let user = try await client.linkAnonymousAccount(toEmail: email, password: password) {
        await askForCode()  // the code from the email; nil if the person gives up (LimenError.userCancelled)
    }
    print(user.id == client.state.user.id)  // the guest's own ID: its data stays where it is
    print(client.state.auth.level == .verified)  // the code proved the address
    // end snippet
}

/// Signing in whatever the state, and the account calls.
func migratingFromRxFireAuthAccount(client: AuthClient, email: String, password: String) async throws {
    // snippet: rxfireauth-account
    // userManager.loginWithoutChecking(email:password:allowMigration:): no linking, no question
    try await client.loginWithoutChecking(email: email, password: password)

    // the providers linked to the user
    for identity in try await client.identities() {
        print(identity.kind.rawValue, identity.subject)  // "password ada@example.com"
    }
    do {
        try await client.unlink(.email)
    } catch .account(.lastIdentity) {
        print("link another way to sign in first")
    }

    // userManager.deleteUser(), after userManager.confirmAuthentication(email:password:): on the provider's
    // step-up challenge the SDK signs in again this way, then deletes (and signs out on the device)
    try await client.deleteAccount(
        reauthenticating: Reauthentication { client, _ throws(LimenError) in
            _ = try await client.login(email: email, password: password, allowMigration: nil)
        })
    // end snippet
}
