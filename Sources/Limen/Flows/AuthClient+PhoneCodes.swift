import Foundation

extension AuthClient {
    /// Sends a one-time code by SMS to `phone` by driving the built-in `phone-code` flow (Rownd's `method: "phone"`);
    /// finish with ``signIn(phone:code:)``. Write the number with `+` and its country code, in any usual form
    /// (`+1 (555) 123-4567`). A number without an account gets the same answer, and a message only when the server
    /// takes new accounts (the account is then made by ``signIn(phone:code:)``). While someone is signed in, the
    /// number is added to their account (a guest keeps their user ID).
    ///
    /// ```swift
    /// try await client.requestPhoneCode(phone: "+1 555 123 4567")
    /// let user = try await client.signIn(phone: "+1 555 123 4567", code: codeTheUserTyped)
    /// ```
    /// - Throws: ``FlowError/refused(message:details:)`` with a detail `invalid_phone_number`, `unsupported_country`
    ///   or `too_many_messages` (the server's limits on messages: try again later), the failure node's ``FlowError``
    ///   otherwise.
    public func requestPhoneCode(phone: String) async throws(FlowError) {
        try await flows.requestCode(flow: "phone-code", email: Self.phoneKey(phone), field: "phone", entered: phone)
    }

    /// Signs in with the code ``requestPhoneCode(phone:)`` sent to `phone` (written in any form that names the same
    /// number); ``AuthEvent/signInCompleted(method:userType:)`` says ``SignInMethod/phone``.
    /// - Throws: ``FlowError/refused(message:details:)`` for a wrong or spent code (ask for a new one after five),
    ///   `credential_in_use` when the signed-in user's account cannot take a number another account has,
    ///   ``FlowError/secondStepRequired(_:)`` when the account has two-step sign-in on (answer its ``SecondStep`` to
    ///   finish), ``FlowError/incomplete(step:)`` when no code was asked for `phone` by this client.
    @discardableResult
    public func signIn(phone: String, code: String) async throws(FlowError) -> AuthState.User {
        try await flows.completeCode(flow: "phone-code", email: Self.phoneKey(phone), values: ["code": code])
    }

    /// The number as the server reads it (`+` and the digits), so that two ways of writing it find the same step.
    private static func phoneKey(_ phone: String) -> String {
        phone.filter { $0 == "+" || ($0.isASCII && $0.isNumber) }
    }
}
