import Foundation
import FuzzSupport
import LimenOIDC

// A compact JWS taken apart (base64url segments, JSON header and payload), and base64url against Foundation's decoder.
FuzzDriver.run { input in
    let text = String(decoding: input, as: UTF8.self)
    if let jwt = try? UnverifiedJWT(text) {
        _ = (jwt.algorithm, jwt.keyID, jwt.audience, jwt.expiresAt, jwt.isExpired(leeway: 30))
    }
    do {
        try Base64URLDifferential.check(text: text)
        try Base64URLDifferential.check(roundTrip: Data(input))
    } catch {
        fatalError("\(error)")
    }
}
