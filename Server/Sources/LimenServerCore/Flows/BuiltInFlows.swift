/// The flows Limen ships, as definitions in the format an operator writes (``FlowDefinitionParser``): a file with the
/// same `id` replaces one of them. The hosted pages and native apps run the same definitions.
enum BuiltInFlows {
    /// Each built-in flow's definition, by name.
    package static let definitions: [(name: String, yaml: String)] = [
        ("sign-in", signIn), ("sign-up", signUp), ("password-reset", passwordReset), ("email-code", emailCode),
        ("phone-code", phoneCode), ("anonymous", anonymous), ("apple", apple), ("passkey", passkey),
        ("passkey-register", passkeyRegister), ("totp-enrol", totpEnrol),
    ]

    /// Usernameless sign-in with a passkey: the device offers the passkeys it holds for the server's RP ID (any
    /// discoverable credential; a browser may offer them as autofill), and the one chosen signs its user in.
    static let passkey = """
        id: passkey
        start: passkey
        nodes:
          - id: passkey
            name: Sign in with a passkey
            description: Use a passkey saved on this device, a security key or your password manager.
            collectors:
              - {type: PASSKEY, key: passkey, label: Passkey, mode: authenticate, required: true}
              - {type: SUBMIT_BUTTON, key: submit, label: Sign in with a passkey, actions: [check_passkey, require_consent, complete]}
              - {type: FLOW_LINK, key: sign-in, label: Sign in another way, flow: sign-in}
        """

    /// A new passkey for the user signed in on the device (the start carries their access token, which the account
    /// change gate allows): it answers `{"type": "success", "registered": true}`, no code.
    static let passkeyRegister = """
        id: passkey-register
        start: register
        nodes:
          - id: register
            name: Create a passkey
            description: Next time, sign in with your face, fingerprint or device PIN instead of a password.
            collectors:
              - {type: PASSKEY, key: passkey, label: Passkey, mode: register, required: true}
              - {type: TEXT, key: name, label: Name of this passkey, validation: {regex: '(?s).{0,\(PasskeyCeremonies.maximumNameLength)}', message: Use at most \(PasskeyCeremonies.maximumNameLength) characters.}}
              - {type: SUBMIT_BUTTON, key: submit, label: Save the passkey, actions: [register_passkey]}
        """

    /// The second step of a two-step sign-in (``SecondStep``), which every flow that completes gets unless it has a
    /// node `mfa` of its own: the user answers with a code from their authenticator app, one of their passkeys, or a
    /// recovery code (only the ways they have are shown).
    static let secondStep = """
        id: mfa
        start: mfa
        nodes:
          - id: mfa
            name: Two-step sign-in
            description: Confirm it is you with your second step.
            collectors:
              - {type: TEXT, key: totp, label: Code from your authenticator app, validation: {regex: '\\s*[0-9]{3} ?[0-9]{3}\\s*', message: Enter the 6 digits your app shows.}}
              - {type: SUBMIT_BUTTON, key: submit-totp, label: Verify, actions: [check_totp, require_consent, complete]}
              - {type: PASSKEY, key: passkey, label: Passkey, mode: authenticate}
              - {type: SUBMIT_BUTTON, key: submit-passkey, label: Use a passkey, actions: [check_passkey, require_consent, complete]}
              - {type: TEXT, key: recovery_code, label: Recovery code}
              - {type: SUBMIT_BUTTON, key: submit-recovery-code, label: Use a recovery code, actions: [check_recovery_code, require_consent, complete]}
        """

    /// Two-step sign-in for the user signed in on the device (the start carries their access token, which the account
    /// change gate allows): the secret to add to an authenticator app, turned on by a current code of it; then the ten
    /// recovery codes, shown once. It answers `{"type": "success", "registered": true}`, no code.
    static let totpEnrol = """
        id: totp-enrol
        start: enrol
        nodes:
          - id: enrol
            name: Set up your authenticator app
            description: Scan the code or enter the key in your authenticator app, then type the 6-digit code it shows.
            collectors:
              - {type: LABEL, key: otpauth_uri, label: Add to your authenticator app}
              - {type: LABEL, key: secret, label: Setup key}
              - {type: TEXT, key: totp, label: Code from your authenticator app, required: true, validation: {regex: '\\s*[0-9]{3} ?[0-9]{3}\\s*', message: Enter the 6 digits your app shows.}}
              - {type: SUBMIT_BUTTON, key: submit, label: Turn on two-step sign-in, actions: [enable_totp], next: recovery-codes}
          - id: recovery-codes
            name: Save your recovery codes
            description: Each code signs you in once if you lose your authenticator app. They are shown only now.
            collectors:
              - {type: LABEL, key: recovery_codes, label: Recovery codes}
              - {type: SUBMIT_BUTTON, key: submit, label: I have saved them, actions: [finish_enrolment]}
        """

    /// A guest: an anonymous user with no identity, made by one button, who can link an email address later and keep
    /// their user ID and data (Apple's guideline: let people use the app before asking who they are).
    package static let anonymous = """
        id: anonymous
        start: guest
        nodes:
          - id: guest
            name: Continue as a guest
            description: Use the app without an account. You can add your email address later and keep what you did.
            collectors:
              - {type: SUBMIT_BUTTON, key: submit, label: Continue as a guest, actions: [create_anonymous_account, require_consent, complete]}
              - {type: FLOW_LINK, key: sign-in, label: I have an account, flow: sign-in}
        """

    /// Sign in with Apple from a native app, offered with the `apple` setting only: the app asks Apple itself
    /// (`ASAuthorizationController`, with the SHA-256 of a raw nonce it generated) and submits the identity token, the
    /// raw nonce, on the first sign-in the name Apple gave it, and optionally Apple's authorization code (redeemed
    /// when the team key is configured); the Apple ID signs in, or is linked to the user
    /// signed in on the device, by ``AccountLinking``'s cases.
    package static let apple = """
        id: apple
        start: apple
        nodes:
          - id: apple
            name: Sign in with Apple
            description: Continue with your Apple ID.
            collectors:
              - {type: TEXT, key: identity_token, label: Identity token, required: true}
              - {type: TEXT, key: nonce, label: Nonce, required: true}
              - {type: TEXT, key: name, label: Name, validation: {regex: '(?s).{0,\(Accounts.maximumNameLength)}', message: Use at most \(Accounts.maximumNameLength) characters for your name.}}
              - {type: TEXT, key: authorization_code, label: Authorization code, validation: {regex: '.{0,2048}', message: Use at most 2048 characters for the authorization code.}}
              - {type: SUBMIT_BUTTON, key: submit, label: Continue with Apple, actions: [sign_in_with_apple, require_consent, complete]}
        """

    /// Email and password; links to password reset, sign-up and passwordless sign-in by email or phone, and a button
    /// to sign in with a passkey instead. Its conditional `PASSKEY` carries a one-use challenge of this interaction, so
    /// a browser or an app offers passkeys as the email field's autofill at once; a passkey picked answers the node
    /// with `submit-passkey`, without the email and password.
    package static let signIn = """
        id: sign-in
        start: credentials
        nodes:
          - id: credentials
            name: Sign in
            description: Sign in with your email address and password.
            collectors:
              - {type: TEXT, key: email, label: Email address, required: true}
              - {type: PASSWORD, key: password, label: Password, required: true}
              - {type: SUBMIT_BUTTON, key: submit, label: Sign in, actions: [check_password, require_consent, complete]}
              - {type: FLOW_LINK, key: forgot-password, label: Forgot your password?, flow: password-reset}
              - {type: FLOW_LINK, key: create-account, label: Create an account, flow: sign-up}
              - {type: FLOW_LINK, key: email-code, label: Sign in with a code instead, flow: email-code}
              - {type: FLOW_LINK, key: phone-code, label: Sign in with a phone number, flow: phone-code}
              - {type: FLOW_BUTTON, key: passkey, label: Sign in with a passkey, flow: passkey}
              - {type: PASSKEY, key: passkey-autofill, label: Passkey, mode: authenticate, mediation: conditional}
              - {type: SUBMIT_BUTTON, key: submit-passkey, label: Sign in with the passkey you picked, actions: [check_passkey, require_consent, complete]}
        """

    /// A new account: the email address, proved by a code sent to it, then a password and an optional name; links
    /// back to sign-in. An address that has an account gets the same answers (its owner a notice instead of a code),
    /// so sign-up does not tell who has an account. The name's rule is the account's (counted in code points, which
    /// are never fewer than characters), so a name the account would refuse is refused before the code is spent.
    package static let signUp = """
        id: sign-up
        start: details
        nodes:
          - id: details
            name: Create your account
            description: We will send a code to your email address to confirm it.
            collectors:
              - {type: TEXT, key: email, label: Email address, required: true}
              - {type: SUBMIT_BUTTON, key: submit, label: Send the code, actions: [send_sign_up_code], next: code}
              - {type: FLOW_LINK, key: sign-in, label: I already have an account, flow: sign-in}
          - id: code
            name: Confirm your email address
            description: Enter the code we sent you, and choose the password you will sign in with.
            collectors:
              - {type: TEXT, key: code, label: Code, required: true}
              - {type: TEXT, key: name, label: Name, validation: {regex: '(?s).{0,\(Accounts.maximumNameLength)}', message: Use at most \(Accounts.maximumNameLength) characters for your name.}}
              - {type: PASSWORD, key: password, label: Password, required: true}
              - {type: PASSWORD_VERIFY, key: password-verify, label: Password again, required: true}
              - {type: SUBMIT_BUTTON, key: submit, label: Create account, actions: [check_email_code, create_account, require_consent, complete]}
              - {type: FLOW_BUTTON, key: resend, label: Send another code, next: details}
        """

    /// A code sent by email, then a new password.
    static let passwordReset = """
        id: password-reset
        start: email
        nodes:
          - id: email
            name: Reset your password
            description: We will send a code to your email address.
            collectors:
              - {type: TEXT, key: email, label: Email address, required: true}
              - {type: SUBMIT_BUTTON, key: submit, label: Send the code, actions: [send_email_code], next: code}
              - {type: FLOW_LINK, key: sign-in, label: Back to sign in, flow: sign-in}
          - id: code
            name: Choose a new password
            description: Enter the code we sent you and your new password.
            collectors:
              - {type: TEXT, key: code, label: Code, required: true}
              - {type: PASSWORD, key: password, label: New password, required: true}
              - {type: PASSWORD_VERIFY, key: password-verify, label: New password again, required: true}
              - {type: SUBMIT_BUTTON, key: submit, label: Set the password, actions: [check_email_code, set_password, require_consent, complete]}
              - {type: FLOW_BUTTON, key: resend, label: Send another code, next: email}
        """

    /// Passwordless: a code sent by email signs in (and proves the address).
    static let emailCode = """
        id: email-code
        start: email
        nodes:
          - id: email
            name: Sign in with a code
            description: We will send a code to your email address.
            collectors:
              - {type: TEXT, key: email, label: Email address, required: true}
              - {type: SUBMIT_BUTTON, key: submit, label: Send the code, actions: [send_email_code], next: code}
              - {type: FLOW_LINK, key: sign-in, label: Sign in with a password, flow: sign-in}
          - id: code
            name: Enter your code
            description: Enter the code we sent you.
            collectors:
              - {type: TEXT, key: code, label: Code, required: true}
              - {type: SUBMIT_BUTTON, key: submit, label: Sign in, actions: [check_email_code, mark_email_verified, require_consent, complete]}
              - {type: FLOW_BUTTON, key: resend, label: Send another code, next: email}
        """

    /// Passwordless by phone: a code sent by SMS signs in (and proves the number); a new number makes an account when
    /// sign-up is on. "Send another code" sends a new one to the same number.
    static let phoneCode = """
        id: phone-code
        start: phone
        nodes:
          - id: phone
            name: Sign in with a phone number
            description: We will send a code to your phone by SMS.
            collectors:
              - {type: PHONE, key: phone, label: Phone number, required: true}
              - {type: SUBMIT_BUTTON, key: submit, label: Send the code, actions: [send_phone_code], next: code}
              - {type: FLOW_LINK, key: sign-in, label: Sign in with a password, flow: sign-in}
          - id: code
            name: Enter your code
            description: Enter the code we sent to your phone.
            collectors:
              - {type: TEXT, key: code, label: Code, required: true}
              - {type: SUBMIT_BUTTON, key: submit, label: Sign in, actions: [check_phone_code, require_consent, complete]}
              - {type: SUBMIT_BUTTON, key: resend, label: Send another code, actions: [resend_phone_code], next: code}
        """
}
