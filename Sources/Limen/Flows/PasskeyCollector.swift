import LimenOIDC

/// `PASSKEY`: a passkey ceremony the step asks for. Pass ``options`` (WebAuthn's JSON options, with the server's
/// one-use challenge) to the platform's passkey API, set ``value`` to the credential's JSON it answers
/// (`RegistrationResponseJSON` for ``Mode-swift.enum/register``, `AuthenticationResponseJSON` for
/// ``Mode-swift.enum/authenticate``: what a browser's `PublicKeyCredential.toJSON()` gives), and call
/// ``ContinueNode/next()``.
///
/// ```swift
/// if let passkey = step.collectors.first(where: { $0 is PasskeyCollector }) as? PasskeyCollector {
///     passkey.value = try await authenticator.answer(passkey.options, mode: passkey.mode)
///     let node = await step.next()
/// }
/// ```
public final class PasskeyCollector: FieldCollector {
    /// What the ceremony does.
    public enum Mode: String, Sendable, Equatable {
        /// Makes a new passkey (`navigator.credentials.create()`; on Apple platforms a registration request).
        case register
        /// Signs in with a passkey (`navigator.credentials.get()`; on Apple platforms an assertion request).
        case authenticate
    }

    public let type: String
    public let key: String
    public let label: String
    public let isRequired: Bool
    /// The ceremony; `nil` for a mode this version does not know.
    public let mode: Mode?
    /// Whether the step offers it as its username field's autofill (WebAuthn's conditional mediation, the sign-in
    /// step's) rather than by a button: start its request when the step is shown, with an authenticator that waits
    /// for the person to pick a passkey from the keyboard's suggestions, and send it with the submit button after it.
    public let isConditional: Bool
    /// WebAuthn's options: `PublicKeyCredentialCreationOptionsJSON` or `PublicKeyCredentialRequestOptionsJSON`.
    public let options: JSONValue
    private let storage = LockedValue<JSONValue?>(nil)

    /// The credential's JSON the platform answered; `nil` until the ceremony ran.
    public var value: JSONValue? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    init(_ document: FlowCollectorDocument) {
        (type, key, label, isRequired) = (document.type, document.key, document.label, document.isRequired)
        mode = document.mode.flatMap(Mode.init(rawValue:))
        isConditional = document.mediation == "conditional"
        options = document.passkeyOptions ?? .null
    }

    /// `required` while a required ceremony has not answered; the server checks the answer itself.
    public func validate() -> [FlowValidationError] {
        isRequired && value == nil ? [.required] : []
    }
}
