import Foundation
import FuzzSupport
import LimenWire

// A flow answer as the SDK reads it from the server, then every password policy it carries applied to a few passwords;
// a redirect it accepted must be to a web page.
FuzzDriver.run { input in
    guard let document = try? FlowDocument(parsing: Data(input)) else { return }
    let steps: [FlowStepDocument]
    switch document.node {
    case .continue(let step), .error(let step, _, _): steps = [step]
    case .redirect(let url, _):
        guard ["https", "http"].contains(url.scheme?.lowercased()) else {
            fatalError("a redirect to \(url) was accepted")
        }
        steps = []
    case .failure, .success, .registered, .unknown: steps = []
    }
    for collector in steps.flatMap(\.collectors) {
        guard let policy = collector.policy else { continue }
        guard policy.length.lowerBound >= 0 else { fatalError("a policy with a negative length was accepted") }
        for password in ["", "aaaa", "Correct Horse 1!", String(decoding: input.prefix(64), as: UTF8.self)] {
            for violation in policy.violations(of: password) where violation.code.isEmpty || violation.message.isEmpty {
                fatalError("a violation without a code or message: \(violation)")
            }
        }
    }
}
