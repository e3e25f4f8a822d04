import Crypto
import Foundation
import LimenWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The key that encrypts signing keys at rest: 256 random bits in a file only its owner may read.
///
/// The file holds the key in base64 on one line. It is created on first run with mode 0600, written whole under a
/// temporary name and then linked into place, so a process starting at the same moment reads either no file or the
/// complete one and never overwrites it; a file that its group or others may read or write is refused.
public struct MasterKey: Sendable {
    /// The AES-256 key.
    package let key: SymmetricKey

    /// Reads the key at `path`, creating it (0600) when the file does not exist.
    public static func loadOrCreate(at path: String) throws(MasterKeyError) -> MasterKey {
        if FileManager.default.fileExists(atPath: path) {
            return try load(at: path)
        }
        let key = SymmetricKey(size: .bits256)
        let text = key.withUnsafeBytes { Data($0).base64EncodedString() } + "\n"
        let temporaryPath = path + ".\(RandomToken.make(byteCount: 8)).tmp"
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw .unwritable(path: path, reason: String(cString: strerror(errno))) }
        defer { unlink(temporaryPath) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = written == bytes.count && fsync(descriptor) == 0
        let writeError = errno
        close(descriptor)
        guard synced else { throw .unwritable(path: path, reason: String(cString: strerror(writeError))) }
        // link(2) fails rather than replace an existing file: the first process's key wins.
        guard link(temporaryPath, path) == 0 else {
            if errno == EEXIST { return try load(at: path) }
            throw .unwritable(path: path, reason: String(cString: strerror(errno)))
        }
        return MasterKey(key: key)
    }

    /// Reads an existing key file, refusing one that is not private to its owner.
    package static func load(at path: String) throws(MasterKeyError) -> MasterKey {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
        guard let permissions = attributes[.posixPermissions] as? NSNumber else {
            throw .unreadable(path: path, reason: "cannot read its permissions")
        }
        let mode = permissions.intValue & 0o777
        guard mode & 0o077 == 0 else { throw .tooPermissive(path: path, mode: mode) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path, reason: "cannot read the file")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let raw = Data(base64Encoded: text), raw.count == 32 else { throw .malformed(path: path) }
        return MasterKey(key: SymmetricKey(data: raw))
    }

    /// Encrypts `plaintext` with AES-256-GCM; `context` is authenticated, so ciphertext moved to another row fails.
    func encrypt(_ plaintext: Data, context: String) throws -> Data {
        let box = try AES.GCM.seal(plaintext, using: key, authenticating: Data(context.utf8))
        guard let combined = box.combined else { throw MasterKeyError.sealFailed }
        return combined
    }

    /// Decrypts what ``encrypt(_:context:)`` produced with the same `context`.
    package func decrypt(_ ciphertext: Data, context: String) throws -> Data {
        try AES.GCM.open(AES.GCM.SealedBox(combined: ciphertext), using: key, authenticating: Data(context.utf8))
    }
}

/// Why the master key could not be used.
public enum MasterKeyError: Error, Sendable, Equatable, LocalizedError {
    /// The key file may be read or written by its group or by others.
    case tooPermissive(path: String, mode: Int)
    /// The key file exists but cannot be read.
    case unreadable(path: String, reason: String)
    /// The key file cannot be created.
    case unwritable(path: String, reason: String)
    /// The key file does not hold a base64 256-bit key.
    case malformed(path: String)
    /// Encryption produced no output.
    case sealFailed

    /// A stable code for logs and tests.
    public var code: String {
        switch self {
        case .tooPermissive: "master_key.too_permissive"
        case .unreadable: "master_key.unreadable"
        case .unwritable: "master_key.unwritable"
        case .malformed: "master_key.malformed"
        case .sealFailed: "master_key.seal_failed"
        }
    }

    /// A human message that says how to fix it.
    public var errorDescription: String? {
        switch self {
        case .tooPermissive(let path, let mode):
            "The master key file \(path) has mode \(String(mode, radix: 8)); it must be readable by its owner only. "
                + "Run: chmod 600 \(path)"
        case .unreadable(let path, let reason): "Cannot read the master key file \(path): \(reason)"
        case .unwritable(let path, let reason): "Cannot create the master key file \(path): \(reason)"
        case .malformed(let path): "The master key file \(path) does not hold a base64-encoded 256-bit key"
        case .sealFailed: "Encrypting with the master key failed"
        }
    }
}
