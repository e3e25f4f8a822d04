import HTTPTypes
import Hummingbird
import LimenWire

/// The header fields of DPoP (RFC 9449): a request's proof, and the nonce the server asks proofs to carry.
enum DPoPFields {
    /// `DPoP` (§4.1): the proof.
    static let proof = HTTPField.Name(DPoP.headerName)
    /// `DPoP-Nonce` (§8): the server's current nonce.
    static let nonce = HTTPField.Name("DPoP-Nonce")

    /// The values of `request`'s `DPoP` fields, one per field (a request with several is refused).
    static func proofs(in request: Request) -> [String] {
        proof.map { request.headers[values: $0] } ?? []
    }
}
