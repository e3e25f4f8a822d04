import Foundation
import Testing

@testable import Limen

@Suite("StorageError")
struct StorageErrorTests {
    @Test(
        "every case has a stable code, a message and a retry verdict",
        arguments: [
            (StorageError.invalidKey("a/b"), "storage.invalid_key", false),
            (.invalidNamespace("a.b"), "storage.invalid_namespace", false),
            (.insecurePermissions(path: "/tmp/x"), "storage.insecure_permissions", false),
            (.corrupted(key: "tokens"), "storage.corrupted", false),
            (.keyFileInvalid(path: "/tmp/app.key"), "storage.key_file_invalid", false),
            (.io(path: "/tmp/x", errno: EACCES), "storage.io", false),
            (.io(path: "/tmp/x", errno: EMFILE), "storage.io", true),
            (.lockFailed(path: "/tmp/app.lock", errno: EINTR), "storage.lock_failed", true),
            (.keychain(status: -25308), "storage.keychain", true),
            (.keychain(status: -34018), "storage.keychain", false),
        ])
    func codes(error: StorageError, code: String, isRetryable: Bool) {
        #expect(error.code == code)
        #expect(error.isRetryable == isRetryable)
        #expect(error.errorDescription?.isEmpty == false)
    }

    @Test("the insecure-permissions message names the file and the fix")
    func insecurePermissionsMessage() {
        let message =
            StorageError.insecurePermissions(path: "/home/u/.limen/app.key").errorDescription ?? ""
        #expect(message.contains("/home/u/.limen/app.key"))
        #expect(message.contains("chmod 600"))
    }
}
