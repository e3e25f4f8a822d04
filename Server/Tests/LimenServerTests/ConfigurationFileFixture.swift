import Foundation
import LimenTestSupport

@testable import LimenServer
@testable import LimenServerCore

extension ServerConfiguration {
    /// The configuration resolved from a configuration file holding `text` (written to a temporary folder, removed
    /// afterwards) and `environment`, as `limen-server --config` resolves it.
    static func resolve(file text: String, environment: [String: String] = [:]) throws -> ServerConfiguration {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/limen.yaml"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try ServerConfiguration.resolve(flags: ConfigurationFlags(["--config": path]), environment: environment)
    }
}
