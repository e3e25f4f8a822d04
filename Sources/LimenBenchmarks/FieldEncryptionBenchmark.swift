import Crypto
import Foundation
import Limen

/// Encrypt + decrypt of a 1 KiB field as JWE (`dir` + `A256GCM`) against swift-crypto's bare AES-GCM seal + open of
/// the same bytes, in the same run: through `FieldEncryptionKey` alone, and through `AuthClient.user` (which adds
/// the hops into the client's and the key ring's actors).
enum FieldEncryptionBenchmark {
    /// The size of the field.
    static let fieldByteCount = 1_024

    /// The three rates, each as MB/s of plaintext (encrypt + decrypt of one field counts its bytes once).
    static func measure() async throws -> (raw: Double, key: Double, client: Double) {
        let plaintext = Data((0..<fieldByteCount).map { UInt8(truncatingIfNeeded: $0) })
        let text = String(repeating: "x", count: fieldByteCount)
        let rawKey = SymmetricKey(size: .bits256)
        let fieldKey = FieldEncryptionKey.generate()
        let client = try await BenchmarkSession.signedInClient()
        _ = try await client.user.encrypt(plaintext: text)
        let megabytes = Double(fieldByteCount) / 1e6
        return try await Task.detached {
            let raw = try await Measure.throughput(for: .seconds(1)) {
                let box = try AES.GCM.seal(plaintext, using: rawKey)
                guard try AES.GCM.open(box, using: rawKey).count == fieldByteCount else { fatalError("AES-GCM") }
            }
            let key = try await Measure.throughput(for: .seconds(1)) {
                let field = try fieldKey.encrypt(plaintext)
                guard try fieldKey.decrypt(field).count == fieldByteCount else { fatalError("JWE round trip") }
            }
            let viaClient = try await Measure.throughput(for: .seconds(1)) {
                let field = try await client.user.encrypt(plaintext: text)
                guard try await client.user.decrypt(ciphertext: field).utf8.count == fieldByteCount else {
                    fatalError("client round trip")
                }
            }
            return (raw * megabytes, key * megabytes, viaClient * megabytes)
        }.value
    }
}
