import LimenServerWire
import Testing

@Suite("Phone numbers: E.164 read from what people type, and their country calling codes")
struct PhoneNumberTests {
    @Test(
        "common forms are read as E.164",
        arguments: [
            ("+1 (555) 123-4567", "+15551234567"), ("+44 20 7946 0958", "+442079460958"),
            (" +49.30.1234.5678 ", "+493012345678"), ("+12345678", "+12345678"),
            ("+123456789012345", "+123456789012345"),
        ])
    func reads(input: String, e164: String) {
        #expect(PhoneNumber(input)?.e164 == e164)
    }

    @Test(
        "anything else is refused",
        arguments: [
            "", "5551234567", "1 555 123 4567", "0044 20 7946 0958", "+0 555 123 4567", "+1234567", "+1234567890123456",
            "+1 555 CALL NOW", "+1 555 123 4567 ext 2", "++15551234567", "+1/555/1234567", "+١٢٣٤٥٦٧٨٩",
            "+1" + String(repeating: " ", count: 40) + "5551234567",
        ])
    func refuses(input: String) {
        #expect(PhoneNumber(input) == nil)
    }

    @Test("a number is in a country when its digits start with the calling code")
    func countries() throws {
        let london = try #require(PhoneNumber("+442079460958"))
        #expect(london.isIn(countries: [44]))
        #expect(london.isIn(countries: [1, 44, 49]))
        #expect(!london.isIn(countries: [1, 49]))
        let berlin = try #require(PhoneNumber("+493012345678"))
        #expect(!berlin.isIn(countries: [44, 1]))
        #expect(try #require(PhoneNumber("+12025550100")).isIn(countries: [1]))
    }
}
