import ArgumentParser
import Foundation
import Limen

/// A failure the CLI reports itself, with a stable code like the SDK's ``LimenError/code``.
struct CLIFailure: Error, Equatable {
    /// A stable, machine-readable identifier such as `not_signed_in` or `cli.invalid_profile`.
    let code: String
    /// A one-line human-readable description.
    let message: String

    init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    init(_ error: LimenError) {
        self.init(code: error.code, message: error.errorDescription ?? error.code)
    }

    /// Nobody is signed in under the profile.
    static let notSignedIn = CLIFailure(LimenError.notSignedIn)
    /// The session under the profile ended; sign in again.
    static let sessionExpired = CLIFailure(LimenError.sessionExpired)
}

/// Runs a command body; any failure becomes one `error: <code>: <description>` line on standard error and a
/// non-zero exit status.
func reportingFailures(_ body: () async throws -> Void) async throws {
    let failure: CLIFailure
    do {
        try await body()
        return
    } catch let error as CLIFailure {
        failure = error
    } catch let error as LimenError {
        failure = CLIFailure(error)
    } catch let error as ExitCode {
        throw error
    } catch {
        failure = CLIFailure(code: "cli.unexpected", message: String(describing: error))
    }
    let message = failure.message.replacingOccurrences(of: "\n", with: " ")
    StandardError.writeLine("error: \(failure.code): \(message)")
    throw ExitCode.failure
}
