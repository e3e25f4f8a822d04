import Foundation
import FuzzSupport
import LimenOIDC

// A JWKS document decoded, then a key chosen from it for every algorithm, with and without each published `kid`.
FuzzDriver.run { input in
    guard let keySet = try? JSONWebKeySet(json: Data(input)) else { return }
    let kids: [String?] = [nil] + keySet.keys.prefix(4).map(\.keyID)
    for algorithm in JWSAlgorithm.allCases {
        for kid in kids {
            guard let key = try? KeySelection.key(for: algorithm, kid: kid, in: keySet) else { continue }
            guard keySet.keys.contains(key), kid == nil || key.keyID == kid else {
                fatalError("KeySelection chose a key that is not in the set or has another kid")
            }
        }
    }
}
