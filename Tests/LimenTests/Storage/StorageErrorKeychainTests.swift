import Foundation
import Limen
import Testing

@Suite("StorageError.keychain and StorageName")
struct StorageErrorKeychainTests {
    @Test("a keychain failure has the stable code storage.keychain and names the status")
    func codeAndMessage() {
        let error = StorageError.keychain(status: -34018)
        #expect(error.code == "storage.keychain")
        #expect(error.errorDescription?.contains("-34018") == true)
    }

    @Test(
        "the public validators refuse what the stores refuse",
        arguments: ["", "a/b", String(repeating: "k", count: 129)])
    func keyValidation(key: String) {
        #expect(throws: StorageError.invalidKey(key)) { try StorageName.validate(key: key) }
    }

    @Test("a namespace with a dot is refused, so keychain services split unambiguously")
    func namespaceValidation() throws {
        #expect(throws: StorageError.invalidNamespace("com.example")) {
            try StorageName.validate(namespace: "com.example")
        }
        try StorageName.validate(namespace: "main-app_1")
    }
}
