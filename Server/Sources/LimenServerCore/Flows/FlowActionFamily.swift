/// The built-in actions grouped by the part of ``FlowActionRunner`` that runs them. Every switch over a family and
/// over ``FlowAction/family`` is exhaustive, with no `default:`: a new action must be given a family, and its family's
/// runner must run it, before the server builds.
enum FlowActionFamily: Sendable, Equatable {
    /// The actions around a code sent by email, and the changes it allows (`runEmailAction`).
    enum Email: Sendable, Equatable {
        /// ``FlowAction/sendEmailCode``.
        case sendEmailCode
        /// ``FlowAction/sendSignUpCode``.
        case sendSignUpCode
        /// ``FlowAction/checkEmailCode``.
        case checkEmailCode
        /// ``FlowAction/setPassword``.
        case setPassword
        /// ``FlowAction/markEmailVerified``.
        case markEmailVerified
    }

    /// The actions around a code sent by SMS (`runPhoneAction`).
    enum Phone: Sendable, Equatable {
        /// ``FlowAction/sendPhoneCode``.
        case sendPhoneCode
        /// ``FlowAction/resendPhoneCode``.
        case resendPhoneCode
        /// ``FlowAction/checkPhoneCode``.
        case checkPhoneCode
    }

    /// The passkey ceremonies (`runPasskeyAction`).
    enum Passkey: Sendable, Equatable {
        /// ``FlowAction/checkPasskey``.
        case checkPasskey
        /// ``FlowAction/registerPasskey``.
        case registerPasskey
    }

    /// The second step's codes and the setup of two-step sign-in (`runSecondFactorAction`).
    enum SecondFactor: Sendable, Equatable {
        /// ``FlowAction/checkTOTP``.
        case checkTOTP
        /// ``FlowAction/checkRecoveryCode``.
        case checkRecoveryCode
        /// ``FlowAction/enableTOTP``.
        case enableTOTP
        /// ``FlowAction/finishEnrolment``.
        case finishEnrolment

        /// The way of answering a second step it checks, if it checks one.
        var secondFactorMethod: SecondFactorMethod? {
            switch self {
            case .checkTOTP: .totp
            case .checkRecoveryCode: .recoveryCode
            case .enableTOTP, .finishEnrolment: nil
            }
        }
    }

    /// One of the email actions.
    case email(Email)
    /// One of the SMS actions.
    case phone(Phone)
    /// One of the passkey actions.
    case passkey(Passkey)
    /// One of the two-step sign-in actions.
    case secondFactor(SecondFactor)
    /// ``FlowAction/signInWithApple`` (`signInWithApple`).
    case apple
    /// ``FlowAction/checkPassword``, run by the runner itself.
    case checkPassword
    /// ``FlowAction/createAccount``, run by the runner itself.
    case createAccount
    /// ``FlowAction/createAnonymousAccount``, run by the runner itself.
    case createAnonymousAccount
    /// ``FlowAction/requireConsent``, run by the runner itself.
    case requireConsent
    /// ``FlowAction/complete``, run by the runner itself.
    case complete
}

extension FlowAction {
    /// The family whose runner runs it.
    var family: FlowActionFamily {
        switch self {
        case .sendEmailCode: .email(.sendEmailCode)
        case .sendSignUpCode: .email(.sendSignUpCode)
        case .checkEmailCode: .email(.checkEmailCode)
        case .setPassword: .email(.setPassword)
        case .markEmailVerified: .email(.markEmailVerified)
        case .sendPhoneCode: .phone(.sendPhoneCode)
        case .resendPhoneCode: .phone(.resendPhoneCode)
        case .checkPhoneCode: .phone(.checkPhoneCode)
        case .checkPasskey: .passkey(.checkPasskey)
        case .registerPasskey: .passkey(.registerPasskey)
        case .checkTOTP: .secondFactor(.checkTOTP)
        case .checkRecoveryCode: .secondFactor(.checkRecoveryCode)
        case .enableTOTP: .secondFactor(.enableTOTP)
        case .finishEnrolment: .secondFactor(.finishEnrolment)
        case .signInWithApple: .apple
        case .checkPassword: .checkPassword
        case .createAccount: .createAccount
        case .createAnonymousAccount: .createAnonymousAccount
        case .requireConsent: .requireConsent
        case .complete: .complete
        }
    }
}
