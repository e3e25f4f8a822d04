/// The flows Limen ships, as definitions in the format an operator writes (``FlowDefinitionParser``): a file with the
/// same `id` replaces one of them. The hosted pages and native apps run the same definitions.
enum BuiltInFlows {
    /// Each built-in flow's definition, by name.
    static let definitions: [(name: String, yaml: String)] = [("sign-in", signIn), ("sign-up", signUp)]

    /// Email and password; links to sign-up.
    static let signIn = """
        id: sign-in
        start: credentials
        nodes:
          - id: credentials
            name: Sign in
            description: Sign in with your email address and password.
            collectors:
              - {type: TEXT, key: email, label: Email address, required: true}
              - {type: PASSWORD, key: password, label: Password, required: true}
              - {type: SUBMIT_BUTTON, key: submit, label: Sign in, actions: [check_password, complete]}
              - {type: FLOW_LINK, key: create-account, label: Create an account, flow: sign-up}
        """

    /// A new account with email, password and an optional name; links back to sign-in.
    static let signUp = """
        id: sign-up
        start: details
        nodes:
          - id: details
            name: Create your account
            description: Choose the email address and password you will sign in with.
            collectors:
              - {type: TEXT, key: email, label: Email address, required: true}
              - {type: TEXT, key: name, label: Name}
              - {type: PASSWORD, key: password, label: Password, required: true}
              - {type: PASSWORD_VERIFY, key: password-verify, label: Password again, required: true}
              - {type: SUBMIT_BUTTON, key: submit, label: Create account, actions: [create_account, complete]}
              - {type: FLOW_LINK, key: sign-in, label: I already have an account, flow: sign-in}
        """
}
