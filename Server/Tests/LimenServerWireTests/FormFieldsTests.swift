import LimenServerWire
import Testing

/// The one form reader (issue 9 §1), with RFC 6749's rules: a repeat is refused (§3.2), an empty value is absent (§3.1).
@Suite("Form fields")
struct FormFieldsTests {
    @Test(
        "a field given twice is refused, naming the first repeat, even when one of the two is empty",
        arguments: [("a=1&a=2", "a"), ("a=1&b=2&b=&a=3", "b"), ("c&c", "c"), ("code=&code=x", "code")])
    func repeatRefused(_ text: String, _ name: String) {
        #expect(throws: FormRefusal.repeated(name)) { try FormFields.parse(text) }
    }

    @Test("a field sent empty reads as absent; value(sent:) keeps it as sent")
    func emptyIsAbsent() throws {
        let form = try FormFields.parse("scope=&state&code=abc")
        #expect(form["scope"] == nil && form["state"] == nil && form["missing"] == nil)
        #expect(form["code"] == "abc")
        #expect(form.value(sent: "scope") == "" && form.value(sent: "state") == "")
        #expect(form.value(sent: "missing") == nil)
    }

    @Test("allowing repeats, a repeated field is no single value, and values(_:) keeps those not empty, in order")
    func repeatsAllowed() throws {
        let form = try FormFields.parse("resource=a&resource=&resource=b&scope=x", allowingRepeats: true)
        #expect(form.isRepeated("resource") && !form.isRepeated("scope") && !form.isRepeated("missing"))
        #expect(form["resource"] == nil && form.value(sent: "resource") == nil)
        #expect(form.values("resource") == ["a", "b"])
        #expect(form["scope"] == "x" && form.values("scope") == ["x"])
    }

    @Test("a refusal says what is wrong")
    func refusalDescriptions() {
        #expect(FormRefusal.repeated("code").description == "code is repeated")
        #expect(FormRefusal.unsupportedMediaType.description == "the body must be application/x-www-form-urlencoded")
        #expect(FormRefusal.tooLarge.description == "the request body is too large")
    }
}
