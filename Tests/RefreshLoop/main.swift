import Foundation
import Limen
import LimenOIDC

// The app of issue 25 §1.4, as a process the test kills (LimenServerKilledRefreshTests): it restores the session an
// earlier sign-in left in the shared encrypted file store, then refreshes it in a loop until it is killed, or `count`
// times. One line per event on standard output, written at once (no buffering, so the test reads every line a killed
// process managed to write):
// - `refreshed <n>` after the n-th refresh of this process;
// - `overlap` when a refresh request started while another process's was in flight (see `InFlightProbe`);
// - `signed-out` (exit 3) when there is no session to restore, or the provider refused the refresh token;
// - `error <description>` (exit 4) on any other failure.
//
// Usage: RefreshLoop <issuer> <store directory> <probe file> [count]

/// Writes `line` to standard output at once.
func report(_ line: String) {
    FileHandle.standardOutput.write(Data("\(line)\n".utf8))
}

let arguments = CommandLine.arguments
guard arguments.count >= 4, let issuer = URL(string: arguments[1]) else {
    report("error usage: RefreshLoop <issuer> <store directory> <probe file> [count]")
    exit(4)
}
let count = arguments.count > 4 ? Int(arguments[4]) : nil
// The seeded native client `limen-cli` of Limen Server, its session in the encrypted file store an app and its
// extension would share (the test signed in with the same client and store).
let client = AuthClient(
    configuration: Configuration(
        issuer: issuer, clientID: "limen-cli", scopes: ["profile", "email", "offline_access"],
        store: try EncryptedFileStore(directory: URL(fileURLWithPath: arguments[2]), namespace: DefaultStore.namespace),
        transport: InFlightProbe(path: arguments[3], wrapping: URLSessionTransport()) { report("overlap") }))

if let error = await client.restore() {
    report("error \(error)")
    exit(4)
}
guard await client.currentTokens() != nil else {
    report("signed-out")
    exit(3)
}
var refreshes = 0
while count.map({ refreshes < $0 }) ?? true {
    do {
        guard try await client.refresh() != nil else {
            report("signed-out")
            exit(3)
        }
    } catch {
        report("error \(error)")
        exit(4)
    }
    refreshes += 1
    report("refreshed \(refreshes)")
}
