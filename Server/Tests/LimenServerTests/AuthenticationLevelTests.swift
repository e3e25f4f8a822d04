import Foundation
import LimenServerStorage
import Testing

@testable import LimenServerCore

@Suite("Authentication levels: the acr each set of amr values reaches, what a request and its client require")
struct AuthenticationLevelTests {
    @Test("each sign-in's methods reach their level; a passkey's methods depend on whether it may be backed up")
    func levels() {
        let level = { (methods: [AuthenticationMethod]) in AuthenticationLevel(AuthenticationMethods(methods)) }
        #expect(level([]) == .none)
        #expect(level([.password]) == .singleFactor)
        #expect(level([.sms]) == .singleFactor)
        #expect(level([.federated]) == .singleFactor)
        #expect(level([.password, .oneTimePassword, .multipleFactors]) == .multipleFactors)
        #expect(level([.oneTimePassword, .oneTimePassword]) == .singleFactor, "one factor twice is still one")
        #expect(level([.hardwareKey]) == .singleFactor, "a key without user verification is not phishing-resistant")
        let passkey = PasskeyCredentialRecord(
            credentialID: Data([1]), userID: "u", userHandle: Data([2]), publicKey: Data([3]), signCount: 0,
            isBackupEligible: true, isBackedUp: false, name: "Phone", createdAt: Date())
        #expect(passkey.methods == [.softwareKey, .user, .multipleFactors])
        #expect(level(passkey.methods) == .phishingResistant)
        var bound = passkey
        bound.isBackupEligible = false
        #expect(bound.methods.first == .hardwareKey)
        #expect(AuthenticationLevel.none < .singleFactor && .multipleFactors < .phishingResistant)
    }

    @Test("the methods are stored as their values in one order; unknown values read as nothing")
    func storedForm() {
        let methods = AuthenticationMethods([.multipleFactors, .password, .oneTimePassword])
        #expect(methods.stored == "pwd otp mfa")
        #expect(AuthenticationMethods(stored: "mfa otp pwd") == methods)
        #expect(AuthenticationMethods(stored: "pwd face x") == AuthenticationMethods([.password]))
        #expect(AuthenticationMethods(stored: nil).values.isEmpty, "a row from before the column: nothing known")
    }

    @Test("a request needs the weakest level its acr_values name, raised to its client's; unknown values count not")
    func required() {
        let open = ClientRecord(id: "a", name: "A", kind: .public, redirectURIs: ["x:/"], createdAt: Date())
        var strict = open
        strict.requiredACR = "mfa"
        #expect(AuthenticationLevel.required(acrValues: nil, client: open) == nil)
        #expect(AuthenticationLevel.required(acrValues: "phr mfa", client: open) == .multipleFactors)
        #expect(AuthenticationLevel.required(acrValues: "urn:x phr", client: open) == .phishingResistant)
        #expect(AuthenticationLevel.required(acrValues: nil, client: strict) == .multipleFactors)
        #expect(AuthenticationLevel.required(acrValues: "1", client: strict) == .multipleFactors)
        #expect(AuthenticationLevel.required(acrValues: "phr", client: strict) == .phishingResistant)
        #expect(AuthenticationLevel.supportedValues == ["phr", "mfa", "1", "0"])
    }
}
