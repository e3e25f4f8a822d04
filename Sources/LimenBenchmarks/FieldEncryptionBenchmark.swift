import Crypto
import Foundation
import Limen

/// Encrypt + decrypt of a 1 KiB field as JWE (`dir` + `A256GCM`) against swift-crypto's bare AES-GCM seal + open of
/// the same bytes, in the same run: through `FieldEncryptionKey` alone, and through `AuthClient.user` (which adds
/// the signed-in user's key lookup).
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
            // Five rounds of 200 ms each, the three alternating, so a change in the machine's load reaches all three.
            var rates = (raw: 0.0, key: 0.0, client: 0.0)
            for _ in 0..<5 {
                rates.raw += try await Measure.throughput(for: .milliseconds(200)) {
                    let box = try AES.GCM.seal(plaintext, using: rawKey)
                    guard try AES.GCM.open(box, using: rawKey).count == fieldByteCount else { fatalError("AES-GCM") }
                }
                rates.key += try await Measure.throughput(for: .milliseconds(200)) {
                    let field = try fieldKey.encrypt(plaintext)
                    guard try fieldKey.decrypt(field).count == fieldByteCount else { fatalError("JWE round trip") }
                }
                rates.client += try await Measure.throughput(for: .milliseconds(200)) {
                    let field = try await client.user.encrypt(plaintext: text)
                    guard try await client.user.decrypt(ciphertext: field).utf8.count == fieldByteCount else {
                        fatalError("client round trip")
                    }
                }
            }
            return (rates.raw / 5 * megabytes, rates.key / 5 * megabytes, rates.client / 5 * megabytes)
        }.value
    }
}
