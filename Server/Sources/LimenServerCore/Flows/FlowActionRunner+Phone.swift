import Foundation
import LimenServerStorage
import LimenServerWire
import LimenWire

extension FlowActionRunner {
    /// The error detail code of a number that is not one in E.164 form.
    package static let invalidPhoneNumber = "invalid_phone_number"
    /// The error detail code of a number in a country `sms_countries` leaves out.
    package static let unsupportedCountry = "unsupported_country"
    /// The error detail code once a number or client address has had all the messages its limits allow for now.
    package static let tooManyMessages = "too_many_messages"

    /// The actions around a code sent by SMS (``PhoneCodes``):
    ///
    /// - `send_phone_code` reads `phone`, `resend_phone_code` takes the number of the interaction's last send; both
    ///   check the number and its country, spend the limits (for every number, with an account or not), then send a
    ///   code only when the number has an account, or one may be made (sign-up is on) or linked (someone is signed in
    ///   on the device): the answer is the same either way.
    /// - `check_phone_code` spends a try of the number's budget, redeems the code, then identifies the number's user by
    ///   ``AccountLinking``'s cases as an identity of kind `phone`: a guest signed in keeps their ID, a signed-in
    ///   user gets the number linked (`credential_in_use` when another account has it), nobody signed in gets the
    ///   number's account, made now for a new number.
    func runPhoneAction(
        _ action: FlowActionFamily.Phone,
        _ input: ActionInput,
        context: FlowContext
    ) async throws(StorageError) -> FlowActionOutcome {
        var context = context
        let (flow, phoneCodes) = (input.flow, services.phoneCodes)
        switch action {
        case .checkPhoneCode:
            guard let phone = context.phone else { return .refused(Self.invalidCode) }
            if let refusal = try await Self.redeem(
                Self.text(input.values["code"]) ?? "", sentTo: phone, purpose: flow, codes: phoneCodes.codes,
                budgets: services.emailCodeBudgets)
            {
                try await recordFailure(.wrongCode, user: nil, input)
                return .refused(refusal)
            }
            let identity = ExternalIdentity(
                identityKind: IdentityRecord.phoneKind, linkByVerifiedEmail: false, subject: phone, email: nil,
                emailVerified: false, name: nil, authTime: services.now())
            if !services.signUpEnabled, try await linking.makesAccount(for: identity, request: input.request) {
                return .failed(code: Self.signUpDisabled.code, message: Self.signUpDisabled.message, status: .forbidden)
            }
            switch try await linking.identified(
                identity, as: .phone, request: input.request, context: context, origin: input.origin)
            {
            case .success(let identified): return .proceeded(identified.authenticated(by: [.sms], as: .phoneCode))
            case .failure(let refusal): return .refused(refusal)
            }
        case .sendPhoneCode, .resendPhoneCode:
            let entered = action == .sendPhoneCode ? Self.text(input.values["phone"]) : context.phone
            guard let number = entered.flatMap(PhoneNumber.init) else {
                return .refused(
                    Self.phoneRefusal(
                        Self.invalidPhoneNumber, "Enter the number with + and the country code, like +1 555 123 4567."))
            }
            (context.phone, context.subject, context.methods) = (number.e164, nil, AuthenticationMethods())
            if let countries = phoneCodes.countries, !number.isIn(countries: countries) {
                return .refused(
                    Self.phoneRefusal(Self.unsupportedCountry, "Codes cannot be sent to numbers of this country."))
            }
            if let wait = try await phoneCodes.spendMessage(to: number, from: input.clientAddress, purpose: flow) {
                var refusal = Self.phoneRefusal(
                    Self.tooManyMessages, "Too many codes for this number just now. Try again later.")
                (refusal.status, refusal.retryAfter) = (.tooManyRequests, wait)
                return .refused(refusal)
            }
            var mayReceive = services.signUpEnabled
            if !mayReceive {
                mayReceive =
                    try await services.store.user(identityKind: IdentityRecord.phoneKind, subject: number.e164) != nil
            }
            if !mayReceive { mayReceive = try await linking.signedIn(input.request) != nil }
            guard mayReceive else { return .proceeded(context) }
            let codes = phoneCodes.codes
            let code = codes.newCode()
            let message = SMSMessages.code(code, to: number.e164, issuer: services.issuer.current)
            // Only written to the outbox: the answer never waits for delivery, so it takes the same time either way.
            _ = try await concurrently(
                { () async throws(StorageError) in try await codes.save(code, email: number.e164, purpose: flow) },
                { [outbox = services.mailOutbox] () async throws(StorageError) in try await outbox.enqueue(message) })
        }
        return .proceeded(context)
    }

    /// A refusal about the `phone` field.
    private static func phoneRefusal(_ code: String, _ message: String) -> FlowRefusal {
        FlowRefusal(
            message: message, details: [.init(key: AccountLinking.Credential.phone.key, code: code, message: message)])
    }
}
