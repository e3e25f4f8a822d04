import Foundation
import FuzzSupport
import Limen
import LimenOIDC

// The redirect back from the authorization endpoint, as AuthorizationResponse and CallbackMatcher read it.
//
// The first byte chooses the redirect URI (loopback or private-use scheme), whether `iss` is required, and whether the
// rest is a whole URL or the query of a redirect to the right endpoint (which reaches the parameter checks far more
// often). A response that is accepted must carry the request's state and a code, and the matcher must accept its URL.
let redirects = ["http://127.0.0.1:8123/callback", "com.example.app:/oauth/callback"].compactMap { URL(string: $0) }
let issuer = "https://issuer.example"
let requests = redirects.map { AuthorizationRequest(clientID: "app", redirectURI: $0, state: "s-1234", nonce: "n-1") }

FuzzDriver.run { input in
    guard let mode = input.first else { return }
    let request = requests[Int(mode & 1)]
    let rest = String(decoding: input.dropFirst(), as: UTF8.self)
    let text = mode & 2 == 0 ? rest : request.redirectURI.absoluteString + "?" + rest
    guard let url = URL(string: text) else { return }
    let matched = CallbackMatcher(redirectURI: request.redirectURI).matches(url)
    guard
        let response = try? AuthorizationResponse(
            url: url, for: request, issuer: issuer, issuerParameterRequired: mode & 4 != 0)
    else { return }
    guard response.state == request.state, !response.code.isEmpty, matched else {
        fatalError("accepted a response that is not for this request: \(text.debugDescription)")
    }
}
