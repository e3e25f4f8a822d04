import Foundation
import FuzzSupport
import LimenOIDC

// A `WWW-Authenticate` header as the SDK reads it from a resource server (`BearerChallenge`: RFC 6750 auth-params,
// RFC 9470's `max_age`). A challenge that is read has lowercased, non-empty parameter names without spaces, a
// `max_age` that is never negative, and an `error` that is its `error` parameter.
FuzzDriver.run { input in
    let header = String(decoding: input, as: UTF8.self)
    guard let challenge = BearerChallenge(header) else { return }
    for name in challenge.parameters.keys where name.isEmpty || name != name.lowercased() || name.contains(" ") {
        fatalError("a parameter name that is not a token: \(name.debugDescription)")
    }
    if let maxAge = challenge.maxAge, maxAge < 0 { fatalError("a negative max_age: \(maxAge)") }
    guard challenge.error == challenge.parameters["error"] else { fatalError("error is not the error parameter") }
}
