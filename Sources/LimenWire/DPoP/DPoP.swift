import Crypto
import Foundation

/// What the maker and a verifier of DPoP proofs (RFC 9449) agree on.
public enum DPoP {
    /// The `typ` header of every proof: `dpop+jwt` (RFC 9449 §4.2).
    public static let proofType = "dpop+jwt"

    /// The name of the HTTP header that carries a proof (`DPoP`), and of the token type the server answers with.
    public static let headerName = "DPoP"

    /// The `ath` claim for an access token: base64url of the SHA-256 of its ASCII octets (RFC 9449 §4.2).
    ///
    /// ```swift
    /// DPoP.accessTokenHash(of: "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU")
    /// // "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo" (RFC 9449 §7.1)
    /// ```
    public static func accessTokenHash(of accessToken: String) -> String {
        Base64URL.encode(SHA256.hash(data: Data(accessToken.utf8)))
    }
}
