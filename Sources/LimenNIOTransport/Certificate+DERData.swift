import Foundation
import SwiftASN1
import X509

extension Certificate {
    /// The certificate in DER, as a TLS handshake presents it and pins are computed from (empty if it cannot be
    /// serialised, which a parsed certificate always can).
    var derData: Data {
        var serializer = DER.Serializer()
        return (try? serializer.serialize(self)).map { Data(serializer.serializedBytes) } ?? Data()
    }
}
