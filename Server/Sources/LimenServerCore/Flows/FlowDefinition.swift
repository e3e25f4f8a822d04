import Foundation

/// A sign-in flow: a small graph of nodes the server walks an interaction through, defined declaratively (YAML or
/// JSON, ``FlowDefinitionParser``). Limen's own flows are definitions in the same format (``BuiltInFlows``).
package struct FlowDefinition: Sendable, Equatable {
    /// The flow's name in `POST /flows/{flow}`.
    package var id: String
    /// The node an interaction starts on.
    package var start: String
    /// The nodes, each with a unique `id`.
    package var nodes: [FlowNodeDefinition]

    /// The node `id`, if the flow has it.
    package func node(_ id: String) -> FlowNodeDefinition? {
        nodes.first { $0.id == id }
    }
}

/// One step of a flow: what it shows and collects, and what each of its buttons does.
package struct FlowNodeDefinition: Sendable, Equatable {
    /// Unique in its flow; the submission names it.
    package var id: String
    /// A title.
    package var name: String
    /// A sentence under the title.
    package var description: String
    /// What the node shows and collects, in order; buttons among them.
    package var collectors: [CollectorDefinition]

    /// Makes it of its parts.
    package init(id: String, name: String, description: String, collectors: [CollectorDefinition]) {
        self.id = id
        self.name = name
        self.description = description
        self.collectors = collectors
    }

    /// The collector `key`, if the node has it.
    package func collector(_ key: String) -> CollectorDefinition? {
        collectors.first { $0.key == key }
    }

    /// Whether an `IDP` collector of the node signs in through upstream provider `id`.
    func offers(provider id: String) -> Bool {
        collectors.contains { $0.behaviour == .federate(provider: id) }
    }
}

/// One field, text or button of a node.
package struct CollectorDefinition: Sendable, Equatable {
    /// What it is.
    package var type: CollectorType
    /// Its name in a submission's `values` (or, for a button, its `action`).
    package var key: String
    /// What the person reads.
    package var label: String
    /// Whether a value must be given (a ticked box, a non-empty text, at least one choice).
    package var isRequired: Bool = false
    /// A regular expression the whole value must match, and what to say when it does not.
    package var validation: Validation?
    /// The choices of a `DROPDOWN`, `RADIO`, `COMBOBOX` or `CHECKBOX`.
    package var options: [Option] = []
    /// A `PASSWORD`'s policy as declared; the one enforced and advertised includes ``PasswordPolicy/standard``.
    package var policy: PasswordPolicy?
    /// What pressing a button does.
    package var behaviour: ButtonBehaviour?
    /// What a `PASSKEY` does: register a passkey or sign in with one.
    package var passkeyMode: PasskeyMode?
    /// Whether a `PASSKEY` signing in is offered as the username field's autofill (WebAuthn's conditional
    /// mediation) rather than by a button of its own: the node's other fields stay, and a passkey picked answers it.
    package var isConditional = false

    /// Makes it of its parts.
    package init(
        type: CollectorType, key: String, label: String, isRequired: Bool = false, validation: Validation? = nil,
        options: [Option] = [], policy: PasswordPolicy? = nil, behaviour: ButtonBehaviour? = nil
    ) {
        self.type = type
        self.key = key
        self.label = label
        self.isRequired = isRequired
        self.validation = validation
        self.options = options
        self.policy = policy
        self.behaviour = behaviour
    }

    /// A pattern the value must match.
    package struct Validation: Sendable, Equatable {
        /// An ICU regular expression (`NSRegularExpression`), matched against the whole value.
        package var regex: String
        /// What to say when the value does not match.
        package var message: String
    }

    /// One choice.
    package struct Option: Sendable, Equatable {
        /// What the person reads.
        package var label: String
        /// What the submission sends.
        package var value: String
    }
}

/// What a `PASSKEY` collector's ceremony is (its `mode`).
package enum PasskeyMode: String, Sendable, Equatable, CaseIterable {
    /// A new passkey for the signed-in user (`navigator.credentials.create()`).
    case register
    /// A sign-in with a passkey (`navigator.credentials.get()`).
    case authenticate
}

/// What pressing a button does: run actions in order, then go to a node; or move to another flow.
package enum ButtonBehaviour: Sendable, Equatable {
    /// Runs `actions` in order on the submitted values; when none refuses, goes to `next` (the interaction ends when
    /// an action completes it).
    case run(actions: [FlowAction], next: String?)
    /// Moves the interaction to the start of flow `flow` (a `FLOW_LINK` to "Forgot your password?").
    case switchFlow(String)
    /// Signs in through upstream provider `provider` (an `IDP` collector), then asks for consent when needed and
    /// completes (``FlowFederationStep``).
    case federate(provider: String)
}

/// The built-in actions a button may run: few, each one step of an account rule shared with the hosted pages.
package enum FlowAction: String, Sendable, CaseIterable, Codable {
    /// Checks `email` and `password` (lockout, throttling and one answer for unknown email and wrong password).
    case checkPassword = "check_password"
    /// Creates an account from `email` (the proven one, after a code), `password` and optional `name`.
    case createAccount = "create_account"
    /// Creates an anonymous user: no email, no password, no identity (a guest, ``AuthLevel/guest``).
    case createAnonymousAccount = "create_anonymous_account"
    /// Sends a one-time code to `email` (when it has an account; the answer is the same when not).
    case sendEmailCode = "send_email_code"
    /// Sends a code proving `email` before an account is made for it; when the address already has an account its
    /// owner gets a notice instead (the answer is the same, so sign-up does not tell who has an account).
    case sendSignUpCode = "send_sign_up_code"
    /// Checks the `code` sent to the interaction's email; proves the address and identifies its user (if any).
    case checkEmailCode = "check_email_code"
    /// Sets the identified user's `password` (after a code proved the email).
    case setPassword = "set_password"
    /// Marks the identified user's email verified (after a code proved it).
    case markEmailVerified = "mark_email_verified"
    /// Sends a one-time code by SMS to `phone` (when it has an account, or one may be made or linked; the answer is
    /// the same when not), within the SMS limits (``PhoneCodeLimits``).
    case sendPhoneCode = "send_phone_code"
    /// Sends a new code to the number of the interaction's last `send_phone_code`, within the same limits.
    case resendPhoneCode = "resend_phone_code"
    /// Checks the `code` sent to the interaction's phone number; proves the number and identifies its user by
    /// ``AccountLinking``'s cases (making an account for a new number when sign-up is on).
    case checkPhoneCode = "check_phone_code"
    /// Checks Sign in with Apple's `identity_token` against the raw `nonce` the app generated, and identifies the
    /// user of that Apple ID by ``AccountLinking``'s cases (made with the optional `name` when new).
    case signInWithApple = "sign_in_with_apple"
    /// Asks the identified user to allow the client the requested scopes, unless the client is first-party or they
    /// were allowed before: a native flow shows a consent node; the hosted pages show the consent page after sign-in.
    case requireConsent = "require_consent"
    /// Ends the interaction with an authorization code for the identified user.
    case complete
    /// Checks the node's `PASSKEY` collector's assertion (a sign-in with a passkey, ``PasskeyCeremonies``) and identifies the
    /// user whose credential signed it.
    case checkPasskey = "check_passkey"
    /// Checks the node's `PASSKEY` collector's registration and stores the new passkey for the signed-in user (the start's
    /// bearer token), named by the optional `name`; the interaction then ends with `registered`, no code.
    case registerPasskey = "register_passkey"
    /// Checks the `totp` code from the identified user's authenticator app: the second step of a two-step sign-in
    /// (``SecondFactors``; wrong codes count toward the lockout).
    case checkTOTP = "check_totp"
    /// Checks and uses up one of the identified user's `recovery_code`s: the second step when the app is lost.
    case checkRecoveryCode = "check_recovery_code"
    /// Turns two-step sign-in on for the signed-in user (the start's bearer token) once `totp` is a current code of
    /// the secret the node shows; the next node shows the ten new recovery codes, once.
    case enableTOTP = "enable_totp"
    /// Ends a two-step sign-in setup with `registered`, no code (after the recovery codes were shown).
    case finishEnrolment = "finish_enrolment"

    /// The collectors it reads from its node when the same button ran `earlier` before it: `create_account` after
    /// `check_email_code` takes the address the code proved, not an `email` field.
    func inputs(after earlier: some Sequence<FlowAction>) -> [String] {
        self == .createAccount && earlier.contains(.checkEmailCode) ? ["password"] : inputs
    }

    /// The collectors it reads from its node.
    var inputs: [String] {
        switch self {
        case .checkPassword, .createAccount: ["email", "password"]
        case .sendEmailCode, .sendSignUpCode: ["email"]
        case .sendPhoneCode: ["phone"]
        case .checkEmailCode, .checkPhoneCode: ["code"]
        case .signInWithApple: ["identity_token", "nonce"]
        case .setPassword: ["password"]
        case .checkTOTP, .enableTOTP: ["totp"]
        case .checkRecoveryCode: ["recovery_code"]
        // A passkey action reads its node's `PASSKEY`, whatever its key (``passkeyMisuse(in:position:of:)``).
        case .createAnonymousAccount, .markEmailVerified, .resendPhoneCode, .requireConsent, .complete,
            .finishEnrolment, .checkPasskey, .registerPasskey:
            []
        }
    }

    /// Whether it is a passkey ceremony's action, which reads its node's `PASSKEY`.
    package var isPasskeyCeremony: Bool {
        self == .checkPasskey || self == .registerPasskey
    }

    /// Whether it acts on what the interaction holds, whatever its node's fields say: a button running only such
    /// actions ("Send another code") is pressed without the fields being checked.
    package var ignoresFields: Bool {
        self == .resendPhoneCode
    }
}
