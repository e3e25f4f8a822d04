import Foundation
import LimenServerWire
import Testing

@Suite("Recovery codes: ten single-use codes without look-alikes, typed loosely, kept as hashes")
struct RecoveryCodeTests {
    /// What a code may look like as shown: two groups of six from the alphabet.
    static func isFormatted(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.count == 2
            && groups.allSatisfy { group in
                group.count == 6 && group.allSatisfy { "23456789abcdefghjkmnpqrstuvwxyz".contains($0) }
            }
    }

    @Test("a set is ten distinct codes, shown as two groups of six without 0, O, 1, I or L")
    func set() {
        let codes = RecoveryCode.newSet()
        #expect(codes.count == 10)
        #expect(Set(codes.map(\.normalized)).count == 10)
        for code in codes {
            #expect(Self.isFormatted(code.formatted), "\(code.formatted)")
            #expect(!code.formatted.contains { "0oO1iIlL".contains($0) })
            #expect(code.formatted.replacingOccurrences(of: "-", with: "") == code.normalized)
        }
    }

    @Test("the alphabet has no look-alikes and a code carries at least 50 bits")
    func entropy() {
        let alphabet = String(decoding: RecoveryCode.alphabet, as: UTF8.self)
        #expect(alphabet == "23456789abcdefghjkmnpqrstuvwxyz")
        #expect(Set(RecoveryCode.alphabet).count == RecoveryCode.alphabet.count)
        #expect(Double(RecoveryCode.length) * log2(Double(RecoveryCode.alphabet.count)) >= 50)
    }

    @Test("every symbol of the alphabet is drawn, at every position")
    func uniform() {
        var generator = SystemRandomNumberGenerator()
        let codes = (0..<2_000).map { _ in Array(RecoveryCode(using: &generator).normalized.utf8) }
        for position in 0..<RecoveryCode.length {
            // 2,000 draws from 31 symbols: each expected ≈ 65 times, so a missing one is a bug, not chance.
            #expect(Set(codes.map { $0[position] }) == Set(RecoveryCode.alphabet), "position \(position)")
        }
    }

    @Test(
        "what a person types is read in any case, with spaces and dashes anywhere",
        arguments: ["abcdef-ghjkmn", "ABCDEF GHJKMN", "abcdefghjkmn", " Abc-Def ghj-KMN ", "a-b-c-d-e-f-g-h-j-k-m-n"])
    func typed(text: String) throws {
        let code = try #require(RecoveryCode(typed: text))
        #expect(code.normalized == "abcdefghjkmn")
        #expect(code.formatted == "abcdef-ghjkmn")
    }

    @Test(
        "text that is not a code is refused",
        arguments: [
            "", "abcdef-ghjkm", "abcdef-ghjkmnp", "abcdef-ghjkm0", "abcdef-ghjkmo", "abcdef-ghjkm1", "abcdef-ghjkmi",
            "abcdef-ghjkml", "abcdef_ghjkmn", "abcdef.ghjkmn", "abcdef\tghjkmn", "ａbcdef-ghjkmn", "abcdef-ghjkmñ",
            String(repeating: " ", count: 60) + "abcdef-ghjkmn",
        ])
    func refused(text: String) {
        #expect(RecoveryCode(typed: text) == nil)
    }

    @Test("the stored form is SHA-256 of the normalised code")
    func hash() throws {
        let code = try #require(RecoveryCode(typed: "ABCDEF-GHJKMN"))
        // python3 -c "import hashlib; print(hashlib.sha256(b'abcdefghjkmn').hexdigest())"
        #expect(
            code.hash.map { String(format: "%02x", $0) }.joined()
                == "ff25e0a8f930ea31f7d2fdefc87340e34d7f6849d0781d0cd87701a5301722c0")
    }

    @Test("a typed code matches its own stored hash, and no longer once the caller removes it")
    func match() {
        let codes = RecoveryCode.newSet()
        var stored = codes.map(\.hash)
        for (index, code) in codes.enumerated() {
            #expect(
                RecoveryCode.match(code.formatted.uppercased().replacingOccurrences(of: "-", with: " "), in: stored)
                    == index)
        }
        let used = codes[3]
        let index = RecoveryCode.match(used.formatted, in: stored)
        #expect(index == 3)
        stored.remove(at: 3)
        #expect(RecoveryCode.match(used.formatted, in: stored) == nil)
        #expect(RecoveryCode.match(codes[4].formatted, in: stored) == 3)
    }

    @Test("a wrong or malformed code matches nothing")
    func wrong() {
        let codes = RecoveryCode.newSet()
        let stored = codes.map(\.hash)
        for other in RecoveryCode.newSet() where !codes.contains(where: { $0.normalized == other.normalized }) {
            #expect(RecoveryCode.match(other.formatted, in: stored) == nil)
        }
        let first = codes[0].normalized
        for text in [
            "", String(first.dropLast()), first + "2", String(first.dropLast()) + "0", "\(first.dropLast())\u{0}",
        ] {
            #expect(RecoveryCode.match(text, in: stored) == nil)
        }
        // The stored hash is not a code, and nothing matches an empty list.
        #expect(RecoveryCode.match(codes[0].hash.base64EncodedString(), in: stored) == nil)
        #expect(RecoveryCode.match(codes[0].formatted, in: []) == nil)
    }
}
