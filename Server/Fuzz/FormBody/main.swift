import Foundation
import LimenServer
import LimenWire
import ServerFuzzDriver

// A form body (or query string) as the server reads it, and the same bytes as a Content-Type the form reader matches.
FuzzDriver.run { input in
    let text = String(decoding: input, as: UTF8.self)
    let pairs = FormBody.decode(text)
    let fields = FormFields(pairs)
    for pair in pairs.prefix(8) { _ = fields[pair.name] }
    // What was read, encoded again, reads the same.
    let again = FormBody.decode(FormEncoding.encode(pairs.map { ($0.name, $0.value) }))
    guard again.elementsEqual(pairs, by: { $0 == $1 }) else {
        fatalError("encoding the fields of \(text.debugDescription) does not give them back")
    }
    // A matching Content-Type is the media type itself, perhaps with parameters after a `;`.
    if MediaType.matches(text, FormBody.mediaType) {
        let rest = text.lowercased().split(
            separator: FormBody.mediaType, maxSplits: 1, omittingEmptySubsequences: false)
        guard rest.count == 2, rest[0].allSatisfy({ $0 == " " || $0 == "\t" }),
            rest[1].drop(while: { $0 == " " || $0 == "\t" }).first.map({ $0 == ";" }) ?? true
        else { fatalError("\(text.debugDescription) matched as a form body") }
    }
}
