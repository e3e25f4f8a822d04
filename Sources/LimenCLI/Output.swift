import Foundation
import Limen
import LimenOIDC

/// Unbuffered writes to standard error, for prompts, warnings and errors; standard output stays for results.
enum StandardError {
    /// Writes `line` and a newline to standard error at once.
    static func writeLine(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// Writes `line` and a newline to standard output and flushes it.
func writeOutput(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Says in a sentence on standard error who is now signed in (their email, else their name, or that they are a
/// `guest`, and their ID), and prints the ID alone on standard output, for scripts.
func announceSignIn(of user: AuthState.User, guest: Bool = false) {
    let id = user.id ?? ""
    let who = guest ? "a guest" : user.email ?? user.phoneNumber ?? user.name ?? "an account with no email"
    StandardError.writeLine("Signed in as \(who) (user ID \(id)).")
    writeOutput(id)
}

/// Pretty JSON with sorted keys and unescaped slashes, as the CLI prints it.
func prettyJSON(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(value)
    return String(decoding: data, as: UTF8.self)
}

/// Claims as a JSON object, pretty-printed with sorted keys.
func prettyJSON(claims: [String: JSONValue]) throws -> String {
    try prettyJSON(JSONValue.object(claims))
}
