import Foundation
import LimenServerWire
import Testing

@Suite("CBOR reader: RFC 8949's examples for WebAuthn's subset, and every refusal")
struct CBORReaderTests {
    /// RFC 8949 Appendix A, the examples of the types the reader supports.
    @Test(
        "RFC 8949 Appendix A examples read as the RFC says",
        arguments: [
            ("00", CBORValue.unsigned(0)), ("01", .unsigned(1)), ("0a", .unsigned(10)), ("17", .unsigned(23)),
            ("1818", .unsigned(24)), ("1819", .unsigned(25)), ("1864", .unsigned(100)), ("1903e8", .unsigned(1000)),
            ("1a000f4240", .unsigned(1_000_000)), ("1b000000e8d4a51000", .unsigned(1_000_000_000_000)),
            ("1bffffffffffffffff", .unsigned(18_446_744_073_709_551_615)), ("20", .negative(-1)),
            ("29", .negative(-10)), ("3863", .negative(-100)), ("3903e7", .negative(-1000)),
            ("f4", .bool(false)), ("f5", .bool(true)), ("f6", .null), ("40", .bytes([])),
            ("4401020304", .bytes([1, 2, 3, 4])), ("60", .text("")), ("6161", .text("a")),
            ("6449455446", .text("IETF")), ("62225c", .text("\"\\")), ("62c3bc", .text("\u{00fc}")),
            ("63e6b0b4", .text("\u{6c34}")), ("64f0908591", .text("\u{10151}")), ("80", .array([])),
            ("83010203", .array([.unsigned(1), .unsigned(2), .unsigned(3)])),
            (
                "8301820203820405",
                .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])])
            ),
            ("a0", .map([])), ("a201020304", .map([(.unsigned(1), .unsigned(2)), (.unsigned(3), .unsigned(4))])),
            (
                "a26161016162820203",
                .map([(.text("a"), .unsigned(1)), (.text("b"), .array([.unsigned(2), .unsigned(3)]))])
            ),
            ("826161a161626163", .array([.text("a"), .map([(.text("b"), .text("c"))])])),
        ])
    func knownAnswers(hex: String, expected: CBORValue) throws {
        #expect(try CBORReader.read([UInt8](hex: hex)) == expected)
    }

    @Test("the 25 items of RFC 8949's long array read")
    func longArray() throws {
        let value = try CBORReader.read(
            [UInt8](hex: "98190102030405060708090a0b0c0d0e0f101112131415161718181819"))
        #expect(value == .array((1...25).map { .unsigned(UInt64($0)) }))
    }

    @Test("a negative integer at the bottom of Int64 reads; one below it is refused")
    func negativeRange() throws {
        #expect(try CBORReader.read([UInt8](hex: "3b7fffffffffffffff")) == .negative(Int64.min))
        #expect(throws: CBORError.integerOverflow) { try CBORReader.read([UInt8](hex: "3b8000000000000000")) }
        // RFC 8949 Appendix A: -18446744073709551616.
        #expect(throws: CBORError.integerOverflow) { try CBORReader.read([UInt8](hex: "3bffffffffffffffff")) }
    }

    @Test(
        "integers and lengths not in shortest form are accepted, as loosely encoding authenticators send them",
        arguments: [
            ("1800", CBORValue.unsigned(0)), ("190001", .unsigned(1)), ("1b0000000000000001", .unsigned(1)),
            ("3800", .negative(-1)), ("5800", .bytes([])), ("7800", .text("")),
            ("98020102", .array([.unsigned(1), .unsigned(2)])),
        ])
    func nonMinimal(hex: String, expected: CBORValue) throws {
        #expect(try CBORReader.read([UInt8](hex: hex)) == expected)
    }

    @Test("map lookups find members by integer and by text key")
    func lookups() throws {
        let value = try CBORReader.read([UInt8](hex: "a301022001636b6579f5"))
        #expect(value[1] == .unsigned(2))
        #expect(value[-1] == .unsigned(1))
        #expect(value["key"] == .bool(true))
        #expect(value[7] == nil)
        #expect(CBORValue.unsigned(1)["key"] == nil)
    }

    @Test("a prefix read says how many bytes its item took; a whole read refuses what follows")
    func prefix() throws {
        let bytes = [UInt8](hex: "a201020304 a0 ff")
        let (value, length) = try CBORReader.readPrefix(bytes)
        #expect(length == 5)
        #expect(value[3] == .unsigned(4))
        #expect(throws: CBORError.trailingBytes) { try CBORReader.read(bytes) }
    }

    @Test("bytes in a slice or in Data read as in an array")
    func containers() throws {
        let bytes = [UInt8](hex: "ff ff 83010203 ff")
        let slice = bytes[2..<6]
        #expect(try CBORReader.read(slice) == .array([.unsigned(1), .unsigned(2), .unsigned(3)]))
        #expect(try CBORReader.readPrefix(bytes[2...]).length == 4)
        #expect(try CBORReader.read(Data(slice)) == .array([.unsigned(1), .unsigned(2), .unsigned(3)]))
    }

    @Test(
        "what is outside the subset or malformed is refused with its own error",
        arguments: [
            // Indefinite lengths (RFC 8949 Appendix A) and a stray break.
            ("5f42010243030405ff", CBORError.indefiniteLength), ("7f657374726561646d696e67ff", .indefiniteLength),
            ("9fff", .indefiniteLength), ("bf6346756ef563416d7421ff", .indefiniteLength), ("ff", .indefiniteLength),
            // Tags, floats, undefined and simple values.
            ("c074323031332d30332d32315432303a30343a30305a", .unsupportedType), ("c11a514b67b0", .unsupportedType),
            ("c249010000000000000000", .unsupportedType), ("f97c00", .unsupportedType), ("f90000", .unsupportedType),
            ("fa47c35000", .unsupportedType), ("fb3ff199999999999a", .unsupportedType), ("f7", .unsupportedType),
            ("f0", .unsupportedType), ("f8ff", .unsupportedType),
            // Reserved additional information.
            ("1c", .reservedAdditionalInformation), ("3d", .reservedAdditionalInformation),
            ("fc", .reservedAdditionalInformation),
            // Truncated.
            ("", .truncated), ("18", .truncated), ("1a0000", .truncated), ("83011a0000", .truncated),
            ("a201021a0000", .truncated), ("5901", .truncated),
            // Declared lengths beyond the input, checked before anything is allocated.
            ("5bffffffffffffffff00", .tooLarge), ("7a7fffffff41", .tooLarge), ("9bffffffffffffffff00", .tooLarge),
            ("bb7fffffffffffffff0102", .tooLarge), ("4401", .tooLarge), ("830102", .tooLarge), ("a201", .tooLarge),
            // Invalid UTF-8.
            ("62c328", .invalidUTF8), ("61ff", .invalidUTF8), ("63eda080", .invalidUTF8),
            // The same key twice.
            ("a201020103", .duplicateMapKey), ("a2616101616102", .duplicateMapKey),
            ("a2820102008201020a", .duplicateMapKey),
        ])
    func refusals(hex: String, error: CBORError) {
        #expect(throws: error) { try CBORReader.read([UInt8](hex: hex)) }
    }

    @Test("nesting is read to the depth limit and refused beyond it")
    func depth() throws {
        let limit = CBORReader.maximumDepth
        _ = try CBORReader.read([UInt8](repeating: 0x81, count: limit) + [0x00])
        #expect(throws: CBORError.tooDeep) { try CBORReader.read([UInt8](repeating: 0x81, count: limit + 1) + [0x00]) }
        #expect(throws: CBORError.tooDeep) { try CBORReader.read([UInt8](repeating: 0xa1, count: 100_000)) }
    }

    @Test("errors have stable codes")
    func codes() {
        #expect(CBORError.duplicateMapKey.code == "cbor.duplicate_map_key")
        #expect(CBORError.tooLarge.code == "cbor.too_large")
        #expect(CBORError.tooDeep.errorDescription?.contains("16") == true)
    }
}
