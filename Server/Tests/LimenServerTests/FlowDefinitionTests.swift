import Foundation
import LimenOIDC
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Flow definitions: parsed strictly, references checked at start-up")
struct FlowDefinitionTests {
    /// A valid flow to break one piece at a time.
    static let valid = """
        id: terms
        start: ask
        nodes:
          - id: ask
            name: Terms
            collectors:
              - {type: TEXT, key: email, label: Email, required: true, validation: {regex: '[^@]+@[^@]+', message: An email.}}
              - {type: PASSWORD, key: password, label: Password, policy: {length: {min: 12}, min_characters: {digits: 1}}}
              - {type: DROPDOWN, key: plan, label: Plan, options: [{label: Free, value: free}, {label: Pro, value: pro}]}
              - {type: CHECKBOX, key: terms, label: I accept the terms, required: true}
              - {type: LABEL, key: note, label: Read them first.}
              - {type: SUBMIT_BUTTON, key: submit, label: Go, actions: [create_account, complete]}
              - {type: FLOW_BUTTON, key: later, label: Later, next: ask}
              - {type: FLOW_LINK, key: sign-in, label: Sign in instead, flow: sign-in}
        """

    private static func parse(_ yaml: String) throws(FlowDefinitionError) -> FlowDefinition {
        try FlowDefinitionParser(source: "test.yaml").parse(yaml)
    }

    /// Why the catalog refuses the valid flow with `from` replaced by `to`; `nil` when it accepts it.
    private static func refusal(_ from: String, _ to: String) -> String? {
        let yaml = valid.replacingOccurrences(of: from, with: to)
        #expect(yaml != valid, "the edit \(from) did not apply")
        guard let directory = try? TemporaryDirectory() else { return "no temporary directory" }
        defer { directory.remove() }
        let file = directory.path + "/flow.yaml"
        #expect(FileManager.default.createFile(atPath: file, contents: Data(yaml.utf8)))
        do {
            _ = try FlowCatalog.load(files: [file])
            return nil
        } catch {
            return error.description
        }
    }

    @Test("the built-in flows parse and reference only what exists")
    func builtIns() throws {
        let catalog = try FlowCatalog.load(files: [])
        #expect(
            Set(catalog.flows.keys) == [
                "sign-in", "sign-up", "password-reset", "email-code", "phone-code", "anonymous", "apple", "passkey",
                "passkey-register", "totp-enrol",
            ])
        #expect(FlowCatalog.builtIn.flows.count == 10)
        for flow in catalog.flows.values {
            #expect(
                (flow.node("mfa") != nil) == flow.completes,
                "\(flow.id): every flow that completes has the second step")
        }
        #expect(catalog.offered(under: ServerConfiguration()).flows["apple"] == nil, "only with the apple setting")
        #expect(
            catalog.flows["sign-in"]?.node("credentials")?.collectors.map(\.key) == [
                "email", "password", "submit", "forgot-password", "create-account", "email-code",
                "phone-code", "passkey", "passkey-autofill", "submit-passkey",
            ])
    }

    @Test("a valid definition keeps every collector's type, options, validation, policy and button")
    func validDefinition() throws {
        let flow = try Self.parse(Self.valid)
        let node = try #require(flow.node("ask"))
        #expect(
            node.collectors.map(\.type) == [
                .text, .password, .dropdown, .checkbox, .label, .submitButton, .flowButton, .flowLink,
            ])
        #expect(node.collector("email")?.validation?.regex == "[^@]+@[^@]+")
        #expect(node.collector("plan")?.options.map(\.value) == ["free", "pro"])
        #expect(node.collector("password")?.policy?.length == 12...Accounts.maximumPasswordLength)
        #expect(node.collector("submit")?.behaviour == .run(actions: [.createAccount, .complete], next: nil))
        #expect(node.collector("sign-in")?.behaviour == .switchFlow("sign-in"))
        #expect(node.passwordPolicy?.minimumCharacters.digits == 1)
    }

    @Test(
        "each broken definition is refused with a message naming what is unknown or wrong",
        arguments: [
            (
                "actions: [create_account, complete]", "actions: [create_account, send_postcard, complete]",
                "send_postcard"
            ),
            ("next: ask", "next: nowhere", "unknown node nowhere"),
            ("flow: sign-in", "flow: no-such-flow", "unknown flow no-such-flow"),
            ("type: LABEL", "type: SLIDER", "unknown collector type SLIDER"),
            ("key: note, label", "key: note, colour: red, label", "unknown key colour"),
            ("start: ask", "start: elsewhere", "unknown node elsewhere"),
            ("{label: Free, value: free}, {label: Pro, value: pro}", "", "a DROPDOWN needs options"),
            ("{label: Free, value: free}", "Free", "expected a mapping"),
            ("actions: [create_account, complete]", "actions: [complete, create_account]", "comes last"),
            ("regex: '[^@]+@[^@]+'", "regex: '([a-z'", "not a regular expression"),
            ("type: TEXT, key: email", "type: TEXT, key: mail", "create_account needs a collector email"),
            ("key: note", "key: email", "defined twice"),
            (
                "type: PASSWORD, key: password, label: Password, policy: {length: {min: 12}, min_characters: {digits: 1}}",
                "type: PASSWORD_VERIFY, key: password, label: Password", "needs a PASSWORD"
            ),
            ("id: terms", "id: interactions", "interactions"),
            (
                "{type: LABEL, key: note, label: Read them first.}",
                "{type: LABEL, key: note, label: Read, options: []}", "options does not apply"
            ),
            ("policy: {length: {min: 12}", "policy: {length: {min: 12, max: 3}", "min is larger than max"),
            ("{type: LABEL, key: note,", "{type: PASSKEY, key: note,", "collectors[4].mode: is missing"),
            ("{type: LABEL, key: note,", "{type: PASSKEY, mode: sideways, key: note,", "expected register or"),
            ("{type: LABEL, key: note,", "{type: LABEL, mode: register, key: note,", "mode does not apply"),
            (
                "{type: LABEL, key: note,", "{type: LABEL, mediation: conditional, key: note,",
                "mediation does not apply"
            ),
            (
                "{type: LABEL, key: note,", "{type: PASSKEY, mode: register, mediation: conditional, key: note,",
                "conditional mediation signs in"
            ),
            (
                "{type: LABEL, key: note,", "{type: PASSKEY, mode: authenticate, mediation: modal, key: note,",
                "expected conditional"
            ),
            (
                "{type: LABEL, key: note, label: Read them first.}",
                "{type: PASSKEY, mode: register, key: a, label: A}\n      - {type: PASSKEY, mode: register, key: b, label: B}",
                "at most one PASSKEY"
            ),
            (
                "actions: [create_account, complete]", "actions: [check_passkey, complete]",
                "check_passkey needs a PASSKEY with mode authenticate"
            ),
            (
                "{type: LABEL, key: note, label: Read them first.}\n      - {type: SUBMIT_BUTTON, key: submit, label: Go, actions: [create_account, complete]}",
                "{type: PASSKEY, mode: register, key: passkey, label: P}\n      - {type: SUBMIT_BUTTON, key: submit, label: Go, actions: [check_passkey, complete]}",
                "check_passkey needs a PASSKEY with mode authenticate"
            ),
            (
                "{type: LABEL, key: note, label: Read them first.}\n      - {type: SUBMIT_BUTTON, key: submit, label: Go, actions: [create_account, complete]}",
                "{type: PASSKEY, mode: register, key: passkey, label: P}\n      - {type: SUBMIT_BUTTON, key: submit, label: Go, actions: [register_passkey, require_consent]}",
                "register_passkey ends the interaction"
            ),
        ])
    func refusals(from: String, to: String, naming expected: String) {
        let message = Self.refusal(from, to)
        #expect(message?.contains(expected) == true, "\(message ?? "accepted")")
    }

    @Test("the server refuses to start on a broken flow file, naming the file and the unknown action")
    func startUpRefusal() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.path + "/bad.yaml"
        try Data(Self.valid.replacingOccurrences(of: "complete]", with: "teleport]").utf8).write(
            to: URL(fileURLWithPath: file))
        var configuration = ServerConfiguration.testing(directory: directory)
        configuration.flowFiles = [file]
        do {
            _ = try await ServerComposition.bootstrap(configuration: configuration)
            Issue.record("the server started with a broken flow")
        } catch let error as FlowDefinitionError {
            #expect(error.source == file)
            #expect(error.description.contains("unknown action teleport"))
        }
    }
}
