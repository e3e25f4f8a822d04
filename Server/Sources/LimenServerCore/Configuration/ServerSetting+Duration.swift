import Foundation

extension ServerSetting {
    /// A duration setting within `range`, applied to `path`; `help` is completed with the bounds, and `like` gives
    /// the examples of its error.
    static func duration(
        _ fileKey: String,
        help: String,
        default defaultValue: String,
        in range: ClosedRange<TimeInterval>,
        like examples: String,
        isHidden: Bool = false,
        setting path: any WritableKeyPath<ServerConfiguration, TimeInterval> & Sendable
    ) -> ServerSetting {
        let bounds = DurationSetting.text(for: range.lowerBound) + "–" + DurationSetting.text(for: range.upperBound)
        return ServerSetting(
            fileKey, help: "\(help), \(bounds).", default: defaultValue, isHidden: isHidden
        ) { value, configuration throws(ConfigurationError) in
            configuration[keyPath: path] = try value.duration(in: range, like: examples)
        }
    }
}
