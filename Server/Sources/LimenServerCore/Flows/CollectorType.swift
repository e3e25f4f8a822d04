/// What a collector of a flow node is, by PingDavinci's type names (the wire's `type`).
public enum CollectorType: String, Sendable, CaseIterable, Codable {
    /// One line of text.
    case text = "TEXT"
    /// A phone number: a `TEXT` with `"format": "e164"`, which the server reads in E.164 form (``PhoneNumber``) after
    /// dropping spaces, dashes, dots and parentheses; a device shows its phone keyboard.
    case phone = "PHONE"
    /// A password, with the policy the server enforces.
    case password = "PASSWORD"
    /// The same password again; it must equal the node's `PASSWORD`.
    case passwordVerify = "PASSWORD_VERIFY"
    /// A button that submits the node.
    case submitButton = "SUBMIT_BUTTON"
    /// A button that moves the interaction elsewhere (another node or flow).
    case flowButton = "FLOW_BUTTON"
    /// A link that moves the interaction elsewhere (another node or flow).
    case flowLink = "FLOW_LINK"
    /// Text to show; collects nothing.
    case label = "LABEL"
    /// One choice among `options`, shown as a menu.
    case dropdown = "DROPDOWN"
    /// One choice among `options`, shown as radio buttons.
    case radio = "RADIO"
    /// Any number of choices among `options`.
    case combobox = "COMBOBOX"
    /// A box to tick (`true`), or with `options` any number of them.
    case checkbox = "CHECKBOX"
    /// "Continue with …" an upstream provider (`provider`, an ``IdentityProvider/id``): pressing it sends the person
    /// to sign in there in the platform's web session, and the interaction continues when they come back
    /// (``FlowFederationStep``).
    case idp = "IDP"
    /// A passkey (WebAuthn): its `mode` says whether the node registers one or signs in with one, and its `options`
    /// (WebAuthn's JSON options, with a one-use challenge) are what the device passes to the platform's passkey API;
    /// the value submitted is the credential's JSON (`RegistrationResponseJSON` or `AuthenticationResponseJSON`).
    case passkey = "PASSKEY"

    /// A button or link: pressing it is the submission's `action`.
    public var isButton: Bool {
        [.submitButton, .flowButton, .flowLink, .idp].contains(self)
    }

    /// Whether it collects a value.
    public var collectsValue: Bool {
        !isButton && self != .label
    }

    /// Whether its value is chosen among `options` (required for these, refused for the others).
    public var choosesAmongOptions: Bool {
        [.dropdown, .radio, .combobox].contains(self)
    }

    /// Whether it carries a password policy.
    public var isPassword: Bool {
        self == .password || self == .passwordVerify
    }
}
