import Foundation

/// A message as SMTP's `DATA` carries it (RFC 5322 headers, a `multipart/alternative` body of text and HTML in
/// quoted-printable-free base64, dot-stuffed lines).
enum MailFormat {
    /// The `DATA` text of `message` from `sender`, without the final `.` line.
    package static func data(of message: MailMessage, from sender: String, date: Date = Date()) -> String {
        let boundary = "limen-" + UUID().uuidString
        let headers = [
            "From: \(sender)", "To: \(message.to)", "Subject: \(encodedHeader(message.subject))",
            "Date: \(dateFormatter.string(from: date))", "Message-ID: <\(UUID().uuidString)@limen>",
            "MIME-Version: 1.0", "Content-Type: multipart/alternative; boundary=\"\(boundary)\"",
        ]
        let parts = [("text/plain", message.text), ("text/html", message.html)].map { type, body in
            "--\(boundary)\r\nContent-Type: \(type); charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n"
                + wrapped(Data(body.utf8).base64EncodedString())
        }
        let text =
            headers.joined(separator: "\r\n") + "\r\n\r\n" + parts.joined(separator: "\r\n")
            + "\r\n--\(boundary)--"
        // Dot-stuffing (RFC 5321 §4.5.2): base64 never starts a line with a dot, but a header value could.
        return text.components(separatedBy: "\r\n").map { $0.hasPrefix(".") ? "." + $0 : $0 }
            .joined(separator: "\r\n")
    }

    /// A header value, RFC 2047-encoded when it is not plain ASCII (and never holding a line break).
    static func encodedHeader(_ value: String) -> String {
        let flat = value.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        guard !flat.allSatisfy({ $0.isASCII }) else { return flat }
        return "=?utf-8?B?\(Data(flat.utf8).base64EncodedString())?="
    }

    private static func wrapped(_ base64: String) -> String {
        var lines: [Substring] = []
        var rest = Substring(base64)
        while !rest.isEmpty {
            lines.append(rest.prefix(76))
            rest = rest.dropFirst(76)
        }
        return lines.joined(separator: "\r\n")
    }

    private static let dateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter
    }()
}
