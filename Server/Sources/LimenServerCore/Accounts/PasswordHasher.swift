import Crypto
import Foundation
import LimenServerStorage
import LimenWire
import Tracing
import _CryptoExtras

/// Hashes passwords with scrypt (memory-hard, RFC 7914) and checks them.
///
/// The encoded form follows the PHC string format and carries its parameters, so they can be raised later without
/// invalidating stored hashes: `$scrypt$ln=17,r=8,p=1$<salt>$<hash>` (base64 without padding). Raising the cost
/// (``ServerConfiguration/passwordHashing``) applies to new and changed passwords; stored hashes keep verifying with
/// their own. Work runs in a bounded ``PasswordHashingQueue``, never on an event loop; when it is full, hashing and
/// verifying throw ``AccountError/busy(retryAfter:)``.
///
/// ```swift
/// let hasher = PasswordHasher()
/// let stored = try await hasher.hash("correct horse battery staple")
/// let ok = try await hasher.verify("correct horse battery staple", against: stored)   // true
/// ```
public struct PasswordHasher: Sendable {
    /// scrypt's cost parameters.
    public struct Parameters: Sendable, Equatable {
        /// log2 of the CPU/memory cost N.
        public var logN: Int
        /// The block size r.
        public var blockSize: Int
        /// The parallelism p.
        public var parallelism: Int

        /// Creates a parameter set.
        public init(logN: Int, blockSize: Int, parallelism: Int) {
            self.logN = logN
            self.blockSize = blockSize
            self.parallelism = parallelism
        }

        /// OWASP's recommendation (Password Storage Cheat Sheet): N = 2^17, r = 8, p = 1 (128 MiB per hash).
        public static let owasp = Parameters(logN: 17, blockSize: 8, parallelism: 1)
        /// Cheap parameters for tests only (1 MiB per hash), below OWASP's floor: internal, so that no deployment can
        /// name them (tests reach them through `@testable import`).
        static let testing = Parameters(logN: 10, blockSize: 8, parallelism: 1)

        /// The log2 N a server may be set to: 2^14 (16 MiB per hash) to 2^20 (1 GiB per hash).
        public static let settableLogN = 14...20
        /// The parallelism a server may be set to.
        public static let settableParallelism = 1...16

        /// The least parallelism OWASP's Password Storage Cheat Sheet pairs with `logN` at r = 8 (2^17 with 1, 2^16
        /// with 2, 2^15 with 3, 2^14 with 5); `nil` below 2^14.
        public static func owaspMinimumParallelism(logN: Int) -> Int? {
            switch logN {
            case 17...: 1
            case 16: 2
            case 15: 3
            case 14: 5
            default: nil
            }
        }

        /// Whether these parameters cost at least as much as one of OWASP's minimum configurations.
        public var meetsOWASPMinimum: Bool {
            guard blockSize >= 8, let least = Self.owaspMinimumParallelism(logN: logN) else { return false }
            return parallelism >= least
        }
    }

    /// The parameters new hashes are made with.
    public let parameters: Parameters
    /// Where the work runs.
    public let queue: PasswordHashingQueue
    private static let saltByteCount = 16
    private static let hashByteCount = 32

    /// Creates a hasher; `.owasp` unless told otherwise, on a queue of its own unless given one to share.
    public init(parameters: Parameters = .owasp, queue: PasswordHashingQueue = PasswordHashingQueue()) {
        self.parameters = parameters
        self.queue = queue
    }

    /// The encoded hash of `password` with a fresh random salt, asked for by `clientAddress` (`nil`: the admin API,
    /// the command line), whose work holds at most its share of the queue (``PasswordHashingQueue``).
    public func hash(_ password: String, for clientAddress: String? = nil) async throws(AccountError) -> String {
        let salt = Data((0..<Self.saltByteCount).map { _ in UInt8.random(in: .min ... .max) })
        let derived = try await derive(password, salt: salt, parameters: parameters, for: clientAddress)
        return "$scrypt$ln=\(parameters.logN),r=\(parameters.blockSize),p=\(parameters.parallelism)$"
            + Self.base64(salt) + "$" + Self.base64(derived)
    }

    /// Whether `password` matches `encoded`, compared in constant time; `false` for a malformed encoding. Asked for by
    /// `clientAddress` as ``hash(_:for:)`` is.
    public func verify(
        _ password: String,
        against encoded: String,
        for clientAddress: String? = nil
    ) async throws(AccountError) -> Bool {
        guard let stored = Self.decode(encoded) else { return false }
        let derived = try await derive(
            password, salt: stored.salt, parameters: stored.parameters, for: clientAddress)
        return ConstantTime.equals(Self.base64(derived), Self.base64(stored.hash))
    }

    /// Does the work of one verification and discards it, so that an unknown account takes as long to refuse as a
    /// wrong password. Asked for by `clientAddress` as ``hash(_:for:)`` is.
    public func verifyNothing(_ password: String, for clientAddress: String? = nil) async throws(AccountError) {
        _ = try await derive(
            password, salt: Data(count: Self.saltByteCount), parameters: parameters, for: clientAddress)
    }

    private func derive(
        _ password: String,
        salt: Data,
        parameters: Parameters,
        for clientAddress: String?
    ) async throws(AccountError) -> Data {
        // The span holds the wait for a place in the queue too: a slow sign-in shows whether it waited or hashed.
        let cost = { (attributes: inout SpanAttributes) in attributes["limen.password_hash.log_n"] = parameters.logN }
        return try await OperationSpan.run(Self.spanName, attributes: cost) { () throws(AccountError) in
            try await derivedKey(password, salt: salt, parameters: parameters, for: clientAddress)
        }
    }

    /// The name of a hash's or a check's span.
    static let spanName = "password hashing"

    private func derivedKey(
        _ password: String,
        salt: Data,
        parameters: Parameters,
        for clientAddress: String?
    ) async throws(AccountError) -> Data {
        try await queue.run(for: clientAddress) {
            let key = try KDF.Scrypt.deriveKey(
                from: Data(password.utf8),
                salt: salt,
                outputByteCount: Self.hashByteCount,
                rounds: 1 << parameters.logN,
                blockSize: parameters.blockSize,
                parallelism: parameters.parallelism
            )
            return key.withUnsafeBytes { Data($0) }
        }
    }

    private static func decode(_ encoded: String) -> (parameters: Parameters, salt: Data, hash: Data)? {
        let fields = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 5, fields[0].isEmpty, fields[1] == "scrypt" else { return nil }
        var values: [String: Int] = [:]
        for pair in fields[2].split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let value = Int(parts[1]) else { return nil }
            values[String(parts[0])] = value
        }
        guard let logN = values["ln"], (1...22).contains(logN), let blockSize = values["r"],
            (1...32).contains(blockSize),
            let parallelism = values["p"], (1...16).contains(parallelism),
            let salt = unbase64(fields[3]), let hash = unbase64(fields[4]), hash.count == hashByteCount
        else { return nil }
        return (Parameters(logN: logN, blockSize: blockSize, parallelism: parallelism), salt, hash)
    }

    private static func base64(_ data: Data) -> String {
        String(data.base64EncodedString().prefix { $0 != "=" })
    }

    private static func unbase64(_ text: Substring) -> Data? {
        let padding = String(repeating: "=", count: (4 - text.count % 4) % 4)
        return Data(base64Encoded: String(text) + padding)
    }
}
