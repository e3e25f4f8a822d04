import Foundation
import Limen
import LimenOIDC

// Limen benchmarks: `swift run -c release LimenBenchmarks`. Not a test target, so `swift test` never runs it.

/// One row of the results table.
struct Row {
    var measure: String
    var result: String
    var goal: String
    var met: Bool?
}

var rows: [Row] = []

/// Progress goes to standard error, the table to standard output.
func progress(_ message: String) {
    FileHandle.standardError.write(Data("… \(message)\n".utf8))
}

// (a) A cached access token.
progress("cached validAccessToken()")
let memory = MemoryStore()
try await BenchmarkSession.store(in: memory)
let cachedClient = BenchmarkSession.client(store: memory)
await cachedClient.restore()
_ = try await cachedClient.validAccessToken()
// Off the main actor, like validation below; from the main actor each call also pays one executor hop.
let perCall = try await Task.detached {
    try await Measure.medianPerCall(batches: 1_000, batchSize: 100) {
        _ = try await cachedClient.validAccessToken()
    }
}.value
let nanoseconds = perCall.seconds * 1e9
rows.append(
    Row(
        measure: "cached `validAccessToken()`, median of 1,000 batches × 100 calls",
        result: String(format: "%.0f ns/call", nanoseconds), goal: "≤ 1,000 ns", met: nanoseconds <= 1_000))

// (b) Full ID-token validation, JWKS cached, against `openssl speed` verifications.
progress("openssl speed")
let openssl = OpenSSLSpeed.measure()
let keys = [try BenchmarkKey.rs256(), BenchmarkKey.es256(), BenchmarkKey.edDSA()]
let jwks = try JSONEncoder().encode(["keys": keys.map(\.jwk)])
let cache = JWKSCache(
    jwksURI: BenchmarkSession.issuer.appendingPathComponent("jwks"), transport: StubTransport(body: jwks))
let validator = IDTokenValidator(
    issuer: BenchmarkSession.issuer.absoluteString, clientID: BenchmarkSession.clientID, keys: cache)
let now = Date().timeIntervalSince1970
for key in keys {
    progress("\(key.algorithm) ID-token validation")
    let token = try key.token(claims: [
        "iss": .string(BenchmarkSession.issuer.absoluteString), "sub": .string("alice"),
        "aud": .string(BenchmarkSession.clientID), "iat": .number(now.rounded()),
        "exp": .number(now.rounded() + 3_600), "nonce": .string("n-0S6_WzA2Mj"),
    ])
    _ = try await validator.validate(token, nonce: "n-0S6_WzA2Mj")
    // Measured off the main actor, where the SDK validates (inside `AuthClient`): from the main thread every
    // hop to the key cache's actor and back would cost a main-queue wake-up.
    let rate = try await Task.detached {
        try await Measure.throughput(for: .seconds(1)) {
            _ = try await validator.validate(token, nonce: "n-0S6_WzA2Mj")
        }
    }.value
    let reference: Double? =
        switch key.algorithm {
        case "RS256": openssl.rsa2048
        case "ES256": openssl.ecdsaP256
        default: openssl.ed25519
        }
    let ratio = reference.map { rate / $0 }
    let parseRate = try await Measure.throughput(for: .seconds(1)) { _ = try UnverifiedJWT(token) }
    let signingInput = Data(token.utf8[..<(token.utf8.lastIndex(of: UInt8(ascii: ".")) ?? token.utf8.endIndex)])
    let signature = try key.sign(signingInput)
    let verifyRate = await Measure.throughput(for: .seconds(1)) {
        guard key.verify(signature, signingInput) else { fatalError("the benchmark signature does not verify") }
    }
    rows.append(
        Row(
            measure: "\(key.algorithm) signature check alone (swift-crypto, as jwt-kit calls it), for reference",
            result: String(
                format: "%.0f/s = %@ openssl", verifyRate,
                reference.map { String(format: "%.2f×", verifyRate / $0) } ?? "?"),
            goal: "—", met: nil))
    rows.append(
        Row(
            measure: "\(key.algorithm) token parse alone (base64url + header and claims JSON), for reference",
            result: String(format: "%.0f/s", parseRate), goal: "—", met: nil))
    rows.append(
        Row(
            measure: "\(key.algorithm) ID-token validation (parse, signature, claims) vs openssl verify",
            result: String(
                format: "%.0f/s vs %@/s = %@", rate, reference.map { String(format: "%.0f", $0) } ?? "?",
                ratio.map { String(format: "%.2f×", $0) } ?? "?"),
            goal: "≥ 0.90×", met: ratio.map { $0 >= 0.9 }))
}

// (c) Configure and restore a session from an EncryptedFileStore.
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("limen-bench-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: directory) }
try await BenchmarkSession.store(in: try EncryptedFileStore(directory: directory, namespace: "default"))
progress("EncryptedFileStore restore")
var restores: [Duration] = []
for _ in 0..<200 {
    let start = Measure.clock.now
    let client = BenchmarkSession.client(store: try EncryptedFileStore(directory: directory, namespace: "default"))
    if let error = await client.restore() { throw error }
    restores.append(Measure.clock.now - start)
    guard await client.currentTokens() != nil else { fatalError("the stored session did not restore") }
}
let restoreMilliseconds = Measure.median(restores).seconds * 1e3
rows.append(
    Row(
        measure: "configure + restore from `EncryptedFileStore`, median of 200",
        result: String(format: "%.3f ms", restoreMilliseconds), goal: "≤ 5 ms", met: restoreMilliseconds <= 5))

// (d) Field encryption: a 1 KiB field as JWE, encrypted and decrypted, against bare AES-GCM in the same run.
progress("field encryption")
let field = try await FieldEncryptionBenchmark.measure()
rows.append(
    Row(
        measure: "AES-256-GCM seal + open of 1 KiB alone (swift-crypto), for reference",
        result: String(format: "%.0f MB/s", field.raw), goal: "—", met: nil))
rows.append(
    Row(
        measure: "1 KiB field encrypt + decrypt as JWE (`FieldEncryptionKey`) vs bare AES-GCM",
        result: String(format: "%.0f MB/s = %.2f×", field.key, field.key / field.raw), goal: "≥ 0.25×",
        met: field.key / field.raw >= 0.25))
rows.append(
    Row(
        measure: "1 KiB field encrypt + decrypt through `client.user` vs bare AES-GCM",
        result: String(format: "%.0f MB/s = %.2f×", field.client, field.client / field.raw), goal: "≥ 0.25×",
        met: field.client / field.raw >= 0.25))

// (e) A flow step on the device: a 10-collector node decoded, filled in and validated, against decoding the same
// document with Foundation's `JSONDecoder` into plain `Codable` structs, in the same run.
progress("flow node decode + validate(), and its JSONDecoder reference")
let flowStep = try await FlowNodeBenchmark.measure()
let stepMicroseconds = flowStep.step.seconds * 1e6
let referenceMicroseconds = flowStep.reference.seconds * 1e6
rows.append(
    Row(
        measure: "the flow step's document decoded by `JSONDecoder` into plain `Codable` structs, for reference",
        result: String(format: "%.1f µs", referenceMicroseconds), goal: "—", met: nil))
rows.append(
    Row(
        measure:
            "flow step of 10 collectors: decode (`startFlow`) + fill in + `validate()` vs the `JSONDecoder` reference, "
            + "median of 5 × 100 batches × 20",
        result: String(
            format: "%.1f µs = %.2f× the reference", stepMicroseconds, stepMicroseconds / referenceMicroseconds),
        goal: "≤ 50 µs", met: stepMicroseconds <= 50))

print("openssl: \(openssl.version)")
print("")
print("| Measure | Result | Goal | Met |")
print("|---|---|---|---|")
for row in rows {
    let met = row.met.map { $0 ? "yes" : "**no**" } ?? "n/a"
    print("| \(row.measure) | \(row.result) | \(row.goal) | \(met) |")
}
