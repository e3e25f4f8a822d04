import Crypto
import Foundation

extension AuthenticatorData {
    /// Checks what registration and sign-in both require of authenticator data (WebAuthn §7.1 steps 14–16, §7.2 steps
    /// 15–17): it is for `rpID`, the user was present, and verified when `requiresUserVerification`.
    public func check(rpID: String, requiresUserVerification: Bool) throws(WebAuthnError) {
        guard rpIDHash == Array(SHA256.hash(data: Data(rpID.utf8))) else { throw .rpIDHashMismatch }
        guard flags.contains(.userPresent) else { throw .userNotPresent }
        guard !requiresUserVerification || flags.contains(.userVerified) else { throw .userNotVerified }
    }
}
