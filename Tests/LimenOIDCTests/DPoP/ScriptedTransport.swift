import Foundation
import LimenOIDC

/// A transport that answers each request with the next of its scripted responses (the last one again when they run
/// out) and records the requests.
actor ScriptedTransport: HTTPTransport {
    private var script: [HTTPResponse]
    /// Every request received, in order.
    private(set) var requests: [HTTPRequest] = []

    init(_ script: [HTTPResponse]) {
        self.script = script
    }

    func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        requests.append(request)
        return script.count > 1 ? script.removeFirst() : script[0]
    }

    /// The `DPoP` header of each request.
    var proofs: [String?] { requests.map { $0.headers["DPoP"] } }
}

extension HTTPResponse {
    /// A JSON answer, with `DPoP-Nonce: nonce` when given.
    static func json(_ body: String, status: Int = 200, nonce: String? = nil, headers: [String: String] = [:])
        -> HTTPResponse
    {
        var all = headers
        all["Content-Type"] = "application/json"
        if let nonce { all["DPoP-Nonce"] = nonce }
        return HTTPResponse(status: status, headers: all, body: Data(body.utf8))
    }

    /// The token endpoint's refusal asking for a nonce (RFC 9449 §8), carrying `nonce`.
    static func useNonce(_ nonce: String?) -> HTTPResponse {
        .json(#"{"error":"use_dpop_nonce","error_description":"use the nonce"}"#, status: 400, nonce: nonce)
    }

    /// A resource server's refusal asking for a nonce (RFC 9449 §9), carrying `nonce`.
    static func resourceUseNonce(_ nonce: String?) -> HTTPResponse {
        var headers = ["WWW-Authenticate": #"DPoP error="use_dpop_nonce", error_description="use the nonce""#]
        if let nonce { headers["DPoP-Nonce"] = nonce }
        return HTTPResponse(status: 401, headers: headers)
    }
}
