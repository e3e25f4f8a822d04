import Foundation
import LimenServerStorage

/// Everything the flow engine works with, built once by the composition root: the store roles its steps use, the
/// account and mail services, the upstream providers, the clock and the few settings flows consult.
package struct FlowServices: Sendable {
    /// The tables the flows read and write: interactions, users and identities, codes, consent, clients, profiles,
    /// and whether a user is disabled.
    package typealias Storage = FlowInteractionStore & UserStore & IdentityStore & GrantStore & ConsentStore
        & ClientStore & ProfileStore & PasskeyStore & SecondFactorStore & SecurityEventStore & UserDisablementStore

    /// The flows offered.
    package let flows: FlowCatalog
    /// Where interactions, users and codes are kept.
    package let store: any Storage
    /// Sign-up and changes of accounts.
    package let accounts: Accounts
    /// Password checks, throttled per email and client address.
    package let passwordSignIn: PasswordSignIn
    /// One-time codes sent by email.
    package let emailCodes: EmailCodes
    /// How many codes an address may be sent and tried.
    package let emailCodeBudgets: EmailCodeBudgets
    /// One-time codes sent by SMS, and their limits.
    package let phoneCodes: PhoneCodes
    /// Tells account owners by email what changed on their account.
    package let notifier: AccountNotifier
    /// Where the flows leave their emails and SMS.
    package let mailOutbox: MailOutbox
    /// Client records, served for a few seconds.
    package let clientCache: ClientCache
    /// The app schema, served for a few seconds (a guest's profile is merged into the account it joins).
    package let profileSchemas: AppSchemaCache
    /// The upstream OpenID providers of the `IDP` buttons.
    package let upstreamProviders: UpstreamProviders
    /// Checks Sign in with Apple's identity tokens, when the `apple` setting is given.
    package let appleIdentities: AppleIdentityVerifier?
    /// What Limen keeps of its users' Sign in with Apple, when the `apple` setting is given.
    package let appleAccounts: AppleAccounts?
    /// Passkey ceremonies: challenges, and the checks of what comes back.
    package let passkeys: PasskeyCeremonies
    /// Two-step sign-in: its setup and its codes.
    package let secondFactors: SecondFactors
    /// The issuer identifier (in codes' answers and email links).
    package let issuer: IssuerBox
    /// Whether flows may make accounts (``ServerConfiguration/signUpEnabled``).
    package let signUpEnabled: Bool
    /// The resource indicators a start may name (``ServerConfiguration/resources``).
    package let resources: [String]
    /// The current time.
    package let now: @Sendable () -> Date

    /// Makes it of its parts.
    package init(
        flows: FlowCatalog,
        store: any Storage,
        accounts: Accounts,
        passwordSignIn: PasswordSignIn,
        emailCodes: EmailCodes,
        emailCodeBudgets: EmailCodeBudgets,
        phoneCodes: PhoneCodes,
        notifier: AccountNotifier,
        mailOutbox: MailOutbox,
        clientCache: ClientCache,
        profileSchemas: AppSchemaCache,
        upstreamProviders: UpstreamProviders,
        appleIdentities: AppleIdentityVerifier?,
        appleAccounts: AppleAccounts?,
        passkeys: PasskeyCeremonies,
        secondFactors: SecondFactors,
        issuer: IssuerBox,
        signUpEnabled: Bool,
        resources: [String],
        now: @escaping @Sendable () -> Date
    ) {
        self.flows = flows
        self.store = store
        self.accounts = accounts
        self.passwordSignIn = passwordSignIn
        self.emailCodes = emailCodes
        self.emailCodeBudgets = emailCodeBudgets
        self.phoneCodes = phoneCodes
        self.notifier = notifier
        self.mailOutbox = mailOutbox
        self.clientCache = clientCache
        self.profileSchemas = profileSchemas
        self.upstreamProviders = upstreamProviders
        self.appleIdentities = appleIdentities
        self.appleAccounts = appleAccounts
        self.passkeys = passkeys
        self.secondFactors = secondFactors
        self.issuer = issuer
        self.signUpEnabled = signUpEnabled
        self.resources = resources
        self.now = now
    }
}
