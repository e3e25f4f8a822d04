import LimenOIDC
import Testing

@testable import LimenServer

@Suite("Form bodies: the unescaped fast path reads what FormEncoding reads")
struct FormBodyDecodingTests {
    @Test(
        "bodies with and without escapes decode as FormEncoding.decode does",
        arguments: [
            "token=eyJ.a-b_c.d~e&token_type_hint=access_token", "a=1&&b=&=c&d", "x=a+b&y=%2B%20%26&z=%ZZ",
            "", "&&&===", "name=caf%C3%A9&flag",
        ])
    func sameAsFormEncoding(_ body: String) {
        let expected = FormEncoding.decode(body).map { "\($0.0)=\($0.1)" }
        #expect(FormBody.decode(body).map { "\($0.name)=\($0.value)" } == expected)
    }
}
