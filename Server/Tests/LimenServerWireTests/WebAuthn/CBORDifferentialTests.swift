import Foundation
import LimenServerWire
import Testing

/// What cbor2 read from one input, in the neutral form `vectors.py` writes.
indirect enum Described: Decodable, Equatable {
    case null
    case bool(Bool)
    case integer(String)
    case bytes(String)
    case text(String)
    case array([Described])
    case map([[Described]])
    case other(String)

    private enum Key: String, CodingKey {
        case int, bytes, text, array, map, other
    }

    init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() {
                self = .null
                return
            }
            if let value = try? single.decode(Bool.self) {
                self = .bool(value)
                return
            }
        }
        let container = try decoder.container(keyedBy: Key.self)
        if let value = try container.decodeIfPresent(String.self, forKey: .int) {
            self = .integer(value)
        } else if let value = try container.decodeIfPresent(String.self, forKey: .bytes) {
            self = .bytes(value)
        } else if let value = try container.decodeIfPresent(String.self, forKey: .text) {
            self = .text(value)
        } else if let value = try container.decodeIfPresent([Described].self, forKey: .array) {
            self = .array(value)
        } else if let value = try container.decodeIfPresent([[Described]].self, forKey: .map) {
            self = .map(value)
        } else {
            self = .other(try container.decode(String.self, forKey: .other))
        }
    }

    /// The reader's value in the same form.
    init(_ value: CBORValue) {
        switch value {
        case .unsigned(let number): self = .integer(String(number))
        case .negative(let number): self = .integer(String(number))
        case .bytes(let bytes): self = .bytes(bytes.map { String(format: "%02x", $0) }.joined())
        case .text(let text): self = .text(text)
        case .array(let items): self = .array(items.map(Described.init))
        case .map(let entries): self = .map(entries.map { [Described($0.key), Described($0.value)] })
        case .bool(let flag): self = .bool(flag)
        case .null: self = .null
        }
    }
}

/// One input and what cbor2 made of it.
struct CBORCase: Decodable {
    struct Decoded: Decodable {
        let value: Described
        let length: Int
    }

    let hex: String
    /// Whether the input is an item of WebAuthn's subset as cbor2 encodes it (the reader must accept it).
    let inSubset: Bool
    /// What cbor2 read from its start; `nil` when it refused.
    let cbor2: Decoded?
}

@Suite(
    "CBOR reader against Python's cbor2",
    .disabled(if: PythonVectors.webAuthn.unavailableReason != nil, "\(PythonVectors.webAuthn.unavailableReason ?? "")"))
struct CBORDifferentialTests {
    /// Refusals of well-formed CBOR that cbor2 reads: what lies outside the subset, or beyond the reader's limits.
    static let subsetRefusals: Set<CBORError> = [
        .unsupportedType, .indefiniteLength, .duplicateMapKey, .integerOverflow, .tooDeep,
    ]

    @Test("random items, edge cases and damaged copies: the reader accepts only what cbor2 reads, and reads it alike")
    func differential() async throws {
        let cases = try await PythonVectors.webAuthn.run(["cbor", "8949", "400"], as: [CBORCase].self)
        #expect(cases.count > 1000)
        var accepted = 0
        for item in cases {
            let bytes = [UInt8](hex: item.hex)
            let read: (value: CBORValue, length: Int)
            do {
                read = try CBORReader.readPrefix(bytes)
            } catch {
                #expect(!item.inSubset, "\(item.hex): an item of the subset refused (\(error))")
                if item.cbor2 != nil {
                    #expect(Self.subsetRefusals.contains(error), "\(item.hex): cbor2 reads it, refused with \(error)")
                }
                continue
            }
            accepted += 1
            let expected = try #require(item.cbor2, "\(item.hex): read, but cbor2 refuses it")
            #expect(Described(read.value) == expected.value, "\(item.hex)")
            #expect(read.length == expected.length, "\(item.hex)")
        }
        #expect(accepted > 400)
    }
}
