import Foundation
import LimenServerStorage
import LimenWire
import Logging

/// What running a button's actions gave.
package enum FlowActionOutcome: Sendable, Equatable {
    /// Every action ran: the interaction goes to the button's next node with this context.
    case proceeded(FlowContext)
    /// An action refused the submission: the same node again, with what was wrong.
    case refused(FlowRefusal)
    /// The interaction is over without a code.
    case failed(code: String, message: String, status: FlowAnswerStatus)
    /// `complete` was reached for the user in this context.
    case completed(FlowContext)
    /// The interaction is over, having registered a passkey or two-step sign-in for the signed-in user (no code).
    case registered(FlowContext)
    /// `complete` was reached for a user whose two-step sign-in is on, before their second step: the interaction goes
    /// to its flow's second-step node (``SecondStep``).
    case secondStep(FlowContext)
}

/// A refusal the person can correct on the same node.
package struct FlowRefusal: Sendable, Equatable {
    /// What to say above the form.
    package var message: String
    /// What was wrong, field by field.
    package var details: [FlowErrorDetail] = []
    /// `200`, or `429`/`503` when waiting helps (with ``retryAfter``).
    package var status: FlowAnswerStatus = .ok
    /// Seconds to wait before trying again.
    package var retryAfter: Int?
}

/// A refusal is the failure of the steps that may end in one (``AccountLinking``).
extension FlowRefusal: Error {}

extension FlowRefusal {
    /// The refusal of values that break the node's rules: the one problem's sentence, or a summary of several.
    package init(problems: [FlowErrorDetail]) {
        self.init(
            message: problems.count == 1 ? problems[0].message : "Some fields need your attention.", details: problems)
    }
}

/// Runs the built-in actions: each one step of the account rules the hosted pages use too (the same lockout,
/// throttling, hashing queue and answers).
struct FlowActionRunner: Sendable {
    /// The accounts, store and mail the actions use.
    package let services: FlowServices
    /// Where the actions log (a redemption Apple refused).
    package var logger = Logger(label: "limen.flows")

    /// Runs `actions` of flow `flow` in `interaction` (its ID, for the link an email carries) in order on `values`;
    /// stops at the first refusal.
    package func run(
        _ actions: [FlowAction],
        flow: String,
        interaction: String,
        values: [String: FlowValue],
        context: FlowContext,
        clientID: String,
        request: FlowRequest,
        origin: RequestOrigin
    ) async throws(StorageError) -> FlowActionOutcome {
        var context = context
        let input = ActionInput(
            flow: flow, interaction: interaction, clientID: clientID, values: values, request: request, origin: origin)
        let clientAddress = input.clientAddress
        for (index, action) in actions.enumerated() {
            switch action.family {
            case .email(let action):
                if action == .checkEmailCode,
                    let refusal = Self.refusalBeforeCode(actions[(index + 1)...], values, context)
                {
                    return refusal
                }
                let accountMadeLater = actions[(index + 1)...].contains(.createAccount)
                switch try await runEmailAction(action, input, context: context, accountMadeLater: accountMadeLater) {
                case .proceeded(let next): context = next
                case let other: return other
                }
            case .checkPassword:
                let email = Self.text(values["email"]) ?? context.email ?? ""
                context.email = Accounts.normalise(email)
                let user: UserRecord
                do throws(AccountError) {
                    user = try await services.passwordSignIn.signIn(
                        email: email, password: Self.text(values["password"]) ?? "", from: origin, client: clientID)
                } catch {
                    return try Self.outcome(of: error)
                }
                switch try await linking.identified(user, request: request, context: context) {
                case .success(let identified): context = identified.authenticated(by: [.password], as: .password)
                case .failure(let refusal): return .refused(refusal)
                }
            case .createAccount:
                guard services.signUpEnabled else {
                    return .failed(
                        code: Self.signUpDisabled.code, message: Self.signUpDisabled.message, status: .forbidden)
                }
                // After a code, the account is for the address the code proved, whatever else is sent.
                let proven = context.emailProven == true && context.email != nil
                let email = (proven ? context.email : Self.text(values["email"]) ?? context.email) ?? ""
                context.email = Accounts.normalise(email)
                let (password, name) = (Self.text(values["password"]) ?? "", Self.text(values["name"]))
                do throws(AccountError) {
                    switch try await linking.link(
                        email: email, password: password, name: name, emailVerified: proven, request: request,
                        from: origin)
                    {
                    case .success(let linked)?: (context.subject, context.createdUser) = (linked.id, false)
                    case .failure(let refusal)?: return .refused(refusal)
                    case nil:
                        let user = try await services.accounts.signUp(
                            email: email, password: password, name: name, emailVerified: proven, from: clientAddress,
                            origin: origin)
                        (context.subject, context.createdUser) = (user.id, true)
                    }
                    // The code that proved the address authenticated the person; otherwise the password they chose.
                    if !proven { context = context.authenticated(by: [.password], as: .password) }
                } catch {
                    return try Self.outcome(of: error)
                }
            case .createAnonymousAccount:
                guard services.signUpEnabled else {
                    return .failed(
                        code: Self.signUpDisabled.code, message: Self.signUpDisabled.message, status: .forbidden)
                }
                do throws(AccountError) {
                    context.subject = try await services.accounts.createAnonymous(origin: origin).id
                    context.createdUser = true
                    (context.methods, context.method) = (AuthenticationMethods(), .anonymous)
                } catch {
                    return try Self.outcome(of: error)
                }
            case .phone(let action):
                switch try await runPhoneAction(action, input, context: context) {
                case .proceeded(let next): context = next
                case let other: return other
                }
            case .apple:
                switch try await signInWithApple(input, context: context) {
                case .proceeded(let next): context = next
                case let other: return other
                }
            case .passkey(let action):
                switch try await runPasskeyAction(action, input, context: context) {
                case .proceeded(let next): context = next
                case let other: return other
                }
            case .secondFactor(let action):
                switch try await runSecondFactorAction(action, input, context: context) {
                case .proceeded(let next): context = next
                case let other: return other
                }
            case .requireConsent:
                // A hosted page asks on the consent page once the browser session starts. A native flow's client is
                // first-party, which is never asked (`ConsentStore.hasConsent`): only a first-party client starts one,
                // a client's kind never changes, and removing a client removes its interactions.
                guard context.subject != nil else { return Self.nobody }
            case .complete:
                return try await complete(context, request: request)
            }
        }
        return .proceeded(context)
    }

    /// The `complete` action on `context`, whose user an earlier step (or something outside the flow) identified:
    /// the second step when the user's two-step sign-in or `request`'s level asks for one, the failure when no way
    /// reaches that level, else completed. It checks no code, so it counts nothing against any address.
    package func complete(_ context: FlowContext, request: FlowRequest) async throws(StorageError)
        -> FlowActionOutcome
    {
        guard let subject = context.subject else { return Self.nobody }
        if let step = try await secondStep(for: subject, context: context, required: request.requiredLevel) {
            var context = context
            context.secondStep = step
            return .secondStep(context)
        }
        if let required = request.requiredLevel, AuthenticationLevel(context.methods) < required {
            return Self.unmetLevel(required)
        }
        return .completed(context)
    }

    /// The case table of the credentials the actions find (``AccountLinking``).
    var linking: AccountLinking { AccountLinking(services: services) }

    /// The actions around a code sent by email; `accountMadeLater` says whether `create_account` runs later on the
    /// same button (which then makes or links the account).
    private func runEmailAction(
        _ action: FlowActionFamily.Email,
        _ input: ActionInput,
        context: FlowContext,
        accountMadeLater: Bool
    ) async throws(StorageError) -> FlowActionOutcome {
        var context = context
        let flow = input.flow
        let (codes, budgets) = (services.emailCodes, services.emailCodeBudgets)
        switch action {
        case .sendEmailCode, .sendSignUpCode:
            let email = Accounts.normalise(Self.text(input.values["email"]) ?? context.email ?? "")
            (context.email, context.subject, context.emailProven, context.methods) = (
                email, nil, nil, AuthenticationMethods()
            )
            // The same answer whether or not the address has an account: only an owner gets a code.
            guard Accounts.isPlausibleEmail(email) else {
                let message = AccountError.invalidEmail.errorDescription ?? ""
                return .refused(
                    FlowRefusal(
                        message: message, details: [.init(key: "email", code: "invalid_email", message: message)]))
            }
            // Counted for every address, with an account or not, before anything depends on which it is.
            if let wait = try await budgets.spend(.mail, email: email, purpose: flow) {
                return .refused(Self.budgetSpent(retryAfter: wait))
            }
            let hasAccount = try await services.store.user(email: email) != nil
            // A guest signed in on the device may prove an address nobody has, to link it (case 1 of AccountLinking).
            let guestLinks = try await linking.signedIn(input.request)?.isAnonymous == true
            let outbox = services.mailOutbox
            // Only written to the outbox: the answer never waits for delivery, so it takes the same time either way.
            switch (action, hasAccount) {
            case (.sendEmailCode, false) where !guestLinks:
                return .proceeded(context)
            case (.sendSignUpCode, true):
                try await outbox.enqueue(CodeMessages.signUpNotice(to: email, issuer: services.issuer.current))
            default:
                let code = codes.newCode()
                let link = EmailLink.make(
                    interaction: input.interaction, code: code,
                    clientBase: try await services.store.client(id: input.clientID)?.emailLinkURI,
                    issuer: services.issuer.current)
                let message = CodeMessages.message(
                    code: code, link: link, to: email, purpose: flow, issuer: services.issuer.current)
                _ = try await concurrently(
                    { () async throws(StorageError) in try await codes.save(code, email: email, purpose: flow) },
                    { () async throws(StorageError) in try await outbox.enqueue(message) })
            }
        case .checkEmailCode:
            guard let email = context.email else { return .refused(Self.invalidCode) }
            if let refusal = try await Self.redeem(
                Self.text(input.values["code"]) ?? "", sentTo: email, purpose: flow, codes: codes, budgets: budgets)
            {
                try await recordFailure(.wrongCode, user: try await services.store.user(email: email)?.id, input)
                return .refused(refusal)
            }
            // No user yet when the code proves an address for sign-up; `complete` then needs create_account first.
            (context.subject, context.emailProven, context.createdUser) = (nil, true, false)
            context = context.authenticated(by: [.oneTimePassword], as: .emailCode)
            if let user = try await services.store.user(email: email) {
                switch try await linking.identified(user, request: input.request, context: context) {
                case .success(let identified): context = identified
                case .failure(let refusal): return .refused(refusal)
                }
            } else if !accountMadeLater {
                // A passwordless sign-in for an address nobody has: linked to the guest signed in on the device.
                do throws(AccountError) {
                    switch try await linking.link(
                        email: email, password: nil, name: nil, emailVerified: true, request: input.request,
                        from: input.origin)
                    {
                    case .success(let linked)?: context.subject = linked.id
                    case .failure(let refusal)?: return .refused(refusal)
                    case nil: break
                    }
                } catch {
                    return try Self.outcome(of: error)
                }
            }
        case .setPassword, .markEmailVerified:
            guard let subject = context.subject, context.emailProven == true else {
                return .failed(code: "no_user", message: "Nobody has proved this email yet.", status: .invalid)
            }
            let changes =
                action == .setPassword
                ? AccountChanges(password: Self.text(input.values["password"]) ?? "")
                : AccountChanges(emailVerified: true)
            let updated: UserRecord?
            do throws(AccountError) {
                updated = try await services.accounts.update(
                    id: subject, changes, from: input.clientAddress, origin: input.origin)
            } catch {
                return try Self.outcome(of: error)
            }
            guard let updated else { return Self.userGone }
            if action == .setPassword { try await services.notifier.notify(.passwordChanged, to: updated) }
        }
        return .proceeded(context)
    }

    /// What `create_account` or `set_password` later on the button would refuse in `values` (a name too long, the
    /// address as the password), answered before `check_email_code` spends the code, so the same code works once the
    /// person corrects it; `nil` when they would accept it.
    private static func refusalBeforeCode(
        _ later: ArraySlice<FlowAction>,
        _ values: [String: FlowValue],
        _ context: FlowContext
    ) -> FlowActionOutcome? {
        guard let email = context.email, later.contains(where: { $0 == .createAccount || $0 == .setPassword }) else {
            return nil
        }
        let name = later.contains(.createAccount) ? text(values["name"]) : nil
        do throws(AccountError) {
            _ = try Accounts.checked(email: email, password: text(values["password"]) ?? "", name: name)
            return nil
        } catch {
            return try? outcome(of: error)
        }
    }

    /// The refusal of a code that is wrong, used, expired, tried too often, or was never sent.
    static let invalidCode = FlowRefusal(
        message: "The code is not correct, or no longer works.",
        details: [.init(key: "code", code: "invalid_code", message: "Check the code, or ask for a new one.")])

    /// The refusal once an address's email-code budget is spent (``EmailCodeBudgets``): the same for every address.
    static func budgetSpent(retryAfter seconds: Int) -> FlowRefusal {
        FlowRefusal(
            message: "Too many codes for this address just now. Try again later.", status: .tooManyRequests,
            retryAfter: seconds)
    }

    /// The failure that ends a sign-up while sign-up is turned off; the engine answers a start of, or a move to, a
    /// flow that creates accounts with the same code and message.
    package static let signUpDisabled = (code: "sign_up_disabled", message: "New accounts are not taken here.")

    /// The failure of an action that needs a user before anyone is identified.
    static let nobody = FlowActionOutcome.failed(
        code: "no_user", message: "Nobody has signed in yet.", status: .invalid)

    /// The failure of an action whose user was deleted meanwhile.
    static let userGone = FlowActionOutcome.failed(
        code: "no_user", message: "This account no longer exists.", status: .gone)

    /// The text of a submitted value, `nil` when empty or not text.
    package static func text(_ value: FlowValue?) -> String? {
        guard case .text(let text)? = value, !text.isEmpty else { return nil }
        return text
    }

    /// An account error as the interaction answers it: the same messages as the hosted pages.
    package static func outcome(of error: AccountError) throws(StorageError) -> FlowActionOutcome {
        let message = error.errorDescription ?? "The request was refused."
        switch error {
        case .invalidCredentials:
            return .refused(FlowRefusal(message: message))
        case .locked(let seconds), .busy(let seconds):
            return .refused(
                FlowRefusal(
                    message: message,
                    status: error == .busy(retryAfter: seconds)
                        ? .unavailable : .tooManyRequests, retryAfter: seconds))
        case .attemptInProgress:
            return .refused(FlowRefusal(message: message, status: .tooManyRequests, retryAfter: error.retryAfter))
        case .invalidEmail:
            return .refused(
                FlowRefusal(message: message, details: [.init(key: "email", code: "invalid_email", message: message)]))
        case .emailTaken:
            return .refused(
                FlowRefusal(message: message, details: [.init(key: "email", code: "email_taken", message: message)]))
        case .weakPassword(let reason):
            return .refused(
                FlowRefusal(message: reason, details: [.init(key: "password", code: "weak_password", message: reason)]))
        case .fieldTooLong(let field, _):
            return .refused(
                FlowRefusal(message: message, details: [.init(key: field, code: "too_long", message: message)]))
        case .storage(let storage):
            throw storage
        case .hashingFailed:
            return .failed(
                code: "server_error", message: "The request could not be completed.", status: .serverError)
        }
    }
}
