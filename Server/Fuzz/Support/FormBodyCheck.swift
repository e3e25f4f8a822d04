import LimenServerWire
import LimenWire

/// The `FormBody` harness's check, also replayed over its seed corpus by `CorpusTests`: the input read as a
/// form body or query (``FormFields``), and as a `Content-Type` the form reader matches.
///
/// - The strict reading refuses exactly the forms that repeat a name, naming the first repeat; otherwise every field
///   reads as sent, an empty one as absent (RFC 6749 §3.1, §3.2).
/// - The reading that allows repeats (`/authorize`) tells the repeated names and keeps every value that is not empty,
///   in order.
/// - The fields, encoded again (``FormEncoding/encode(_:)``), read back the same.
/// - A matching `Content-Type` is the form media type itself, perhaps followed by `;` and parameters.
package enum FormBodyCheck {
    /// Checks one input; throws what it finds.
    package static func check(_ input: some Sequence<UInt8>) throws(FuzzFinding) {
        let text = String(decoding: Array(input), as: UTF8.self)
        let pairs = FormEncoding.decode(text)
        try checkStrict(text, pairs)
        try checkRepeatsAllowed(text, pairs)
        let again = FormEncoding.decode(FormEncoding.encode(pairs))
        guard again.elementsEqual(pairs, by: { $0 == $1 }) else {
            throw FuzzFinding(description: "encoding the fields of \(text.debugDescription) does not give them back")
        }
        try checkMediaType(text)
    }

    private static func checkStrict(_ text: String, _ pairs: [(String, String)]) throws(FuzzFinding) {
        var seen: Set<String> = []
        let firstRepeat = pairs.first { !seen.insert($0.0).inserted }?.0
        let fields: FormFields
        do {
            fields = try FormFields.parse(text)
        } catch {
            guard let firstRepeat, error == .repeated(firstRepeat) else {
                throw FuzzFinding(description: "\(text.debugDescription) refused as \(error), not for its first repeat")
            }
            return
        }
        guard firstRepeat == nil else { throw FuzzFinding(description: "\(text.debugDescription) read with a repeat") }
        for (name, value) in pairs
        where fields[name] != (value.isEmpty ? nil : value) || fields.value(sent: name) != value {
            throw FuzzFinding(description: "\(name.debugDescription) of \(text.debugDescription) does not read as sent")
        }
    }

    private static func checkRepeatsAllowed(_ text: String, _ pairs: [(String, String)]) throws(FuzzFinding) {
        let fields: FormFields
        do {
            fields = try FormFields.parse(text, allowingRepeats: true)
        } catch {
            throw FuzzFinding(description: "\(text.debugDescription) refused (\(error)) although repeats are allowed")
        }
        var sentByName: [String: [String]] = [:]
        for (name, value) in pairs { sentByName[name, default: []].append(value) }
        for (name, sent) in sentByName {
            guard fields.isRepeated(name) == (sent.count > 1), fields.values(name) == sent.filter({ !$0.isEmpty }),
                sent.count == 1 || fields[name] == nil
            else {
                throw FuzzFinding(description: "\(name.debugDescription) of \(text.debugDescription) reads wrongly")
            }
        }
    }

    private static func checkMediaType(_ text: String) throws(FuzzFinding) {
        guard FormFields.isForm(contentType: text) else { return }
        let rest = text.lowercased().split(
            separator: FormFields.mediaType, maxSplits: 1, omittingEmptySubsequences: false)
        guard rest.count == 2, rest[0].allSatisfy({ $0 == " " || $0 == "\t" }),
            rest[1].drop(while: { $0 == " " || $0 == "\t" }).first.map({ $0 == ";" }) ?? true
        else { throw FuzzFinding(description: "\(text.debugDescription) matched as a form body") }
    }
}
