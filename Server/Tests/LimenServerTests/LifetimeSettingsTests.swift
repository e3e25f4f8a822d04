import Foundation
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Durations in settings")
struct DurationSettingTests {
    @Test(
        "whole seconds, or a whole number of seconds, minutes, hours or days",
        arguments: [("600", 600), ("0", 0), ("45s", 45), ("10m", 600), ("12h", 43_200), ("30d", 2_592_000)]
            as [(String, TimeInterval)]
    )
    func parses(_ text: String, _ seconds: TimeInterval) {
        #expect(DurationSetting.seconds(in: text) == seconds)
    }

    @Test(
        "anything else is not a duration",
        arguments: [
            "", "m", "10x", "-5", "-5m", "1.5h", "10 m", " 10m", "10M", "+10", "\u{0661}\u{0660}",
            "9999999999999999999d",
        ]
    )
    func refuses(_ text: String) {
        #expect(DurationSetting.seconds(in: text) == nil)
    }

    @Test(
        "a duration is written with the largest unit that divides it",
        arguments: [(0, "0s"), (45, "45s"), (90, "90s"), (600, "10m"), (3600, "1h"), (86_400, "1d"), (90_000, "25h")]
            as [(TimeInterval, String)]
    )
    func writes(_ seconds: TimeInterval, _ text: String) {
        #expect(DurationSetting.text(for: seconds) == text)
    }
}

@Suite("Token lifetime and password hashing settings")
struct LifetimeSettingsTests {
    @Test("with nothing given the lifetimes are the defaults and new passwords hash with OWASP's scrypt cost")
    func defaults() throws {
        let configuration = try ServerConfiguration.resolve(flags: ConfigurationFlags(), environment: [:])
        #expect(configuration.tokenLifetimes == TokenLifetimes())
        #expect(configuration.tokenLifetimes.grantMaxLifetime == 90 * 86_400)
        #expect(configuration.passwordHashing == .owasp)
    }

    @Test("each lifetime and the hash cost are read from flags over variables over the file")
    func layered() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/limen.yaml"
        let yaml = """
            access_token_ttl: 15m
            id_token_ttl: 2m
            refresh_token_ttl: 7d
            refresh_reuse_grace: 5s
            grant_max_lifetime: 30d
            password_hash_log_n: 18
            password_hash_parallelism: 2
            """
        try Data(yaml.utf8).write(to: URL(fileURLWithPath: path))
        let fromFile = try ServerConfiguration.resolve(flags: ConfigurationFlags(["--config": path]), environment: [:])
        #expect(
            fromFile.tokenLifetimes
                == TokenLifetimes(
                    accessToken: 900, idToken: 120, refreshToken: 7 * 86_400, refreshReuseGrace: 5,
                    grantMaxLifetime: 30 * 86_400))
        #expect(fromFile.passwordHashing == PasswordHasher.Parameters(logN: 18, blockSize: 8, parallelism: 2))

        let environment = [
            "LIMEN_CONFIG": path, "LIMEN_ACCESS_TOKEN_TTL": "20m", "LIMEN_ID_TOKEN_TTL": "3m",
            "LIMEN_REFRESH_TOKEN_TTL": "14d", "LIMEN_REFRESH_REUSE_GRACE": "0", "LIMEN_GRANT_MAX_LIFETIME": "60d",
            "LIMEN_PASSWORD_HASH_LOG_N": "19", "LIMEN_PASSWORD_HASH_PARALLELISM": "3",
        ]
        let fromEnvironment = try ServerConfiguration.resolve(flags: ConfigurationFlags(), environment: environment)
        #expect(
            fromEnvironment.tokenLifetimes
                == TokenLifetimes(
                    accessToken: 1200, idToken: 180, refreshToken: 14 * 86_400, refreshReuseGrace: 0,
                    grantMaxLifetime: 60 * 86_400))
        #expect(fromEnvironment.passwordHashing == PasswordHasher.Parameters(logN: 19, blockSize: 8, parallelism: 3))

        let flags = ConfigurationFlags([
            "--access-token-ttl": "300", "--id-token-ttl": "60", "--refresh-token-ttl": "1d",
            "--refresh-reuse-grace": "60s", "--grant-max-lifetime": "1h", "--password-hash-log-n": "16",
            "--password-hash-parallelism": "2",
        ])
        let fromFlags = try ServerConfiguration.resolve(flags: flags, environment: environment)
        #expect(
            fromFlags.tokenLifetimes
                == TokenLifetimes(
                    accessToken: 300, idToken: 60, refreshToken: 86_400, refreshReuseGrace: 60, grantMaxLifetime: 3600))
        #expect(fromFlags.passwordHashing == PasswordHasher.Parameters(logN: 16, blockSize: 8, parallelism: 2))
    }

    @Test("a cheaper N is accepted with the parallelism OWASP pairs with it")
    func cheaperNWithMoreParallelism() throws {
        let configuration = try ServerConfiguration.resolve(
            flags: ConfigurationFlags(["--password-hash-log-n": "14", "--password-hash-parallelism": "5"]),
            environment: [:])
        #expect(configuration.passwordHashing == PasswordHasher.Parameters(logN: 14, blockSize: 8, parallelism: 5))
    }

    @Test(
        "a duration or cost out of bounds, or below OWASP's minimum, is refused naming its key",
        arguments: [
            (ConfigurationFlags(["--access-token-ttl": "59"]), [:], "--access-token-ttl"),
            (ConfigurationFlags(["--access-token-ttl": "25h"]), [:], "--access-token-ttl"),
            (ConfigurationFlags(), ["LIMEN_ACCESS_TOKEN_TTL": "ten"], "LIMEN_ACCESS_TOKEN_TTL"),
            (ConfigurationFlags(["--id-token-ttl": "0"]), [:], "--id-token-ttl"),
            (ConfigurationFlags(), ["LIMEN_REFRESH_TOKEN_TTL": "366d"], "LIMEN_REFRESH_TOKEN_TTL"),
            (ConfigurationFlags(["--refresh-reuse-grace": "61s"]), [:], "--refresh-reuse-grace"),
            (ConfigurationFlags(), ["LIMEN_REFRESH_REUSE_GRACE": "-1"], "LIMEN_REFRESH_REUSE_GRACE"),
            (ConfigurationFlags(["--grant-max-lifetime": "59m"]), [:], "--grant-max-lifetime"),
            (ConfigurationFlags(), ["LIMEN_GRANT_MAX_LIFETIME": "1826d"], "LIMEN_GRANT_MAX_LIFETIME"),
            (ConfigurationFlags(["--password-hash-log-n": "13"]), [:], "--password-hash-log-n"),
            (ConfigurationFlags(["--password-hash-log-n": "21"]), [:], "--password-hash-log-n"),
            (ConfigurationFlags(["--password-hash-log-n": "14"]), [:], "--password-hash-log-n"),
            (ConfigurationFlags(["--password-hash-parallelism": "0"]), [:], "--password-hash-parallelism"),
            (
                ConfigurationFlags(["--password-hash-log-n": "15", "--password-hash-parallelism": "2"]), [:],
                "--password-hash-parallelism"
            ),
            (ConfigurationFlags(), ["LIMEN_PASSWORD_HASH_PARALLELISM": "17"], "LIMEN_PASSWORD_HASH_PARALLELISM"),
        ] as [(ConfigurationFlags, [String: String], String)]
    )
    func refused(flags: ConfigurationFlags, environment: [String: String], key: String) {
        let error = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.resolve(flags: flags, environment: environment)
        }
        #expect(error?.key == key)
        #expect(error?.errorDescription?.hasPrefix("Invalid \(key) ") == true)
    }

    @Test("a bound is named in the refusal the way settings write durations")
    func refusalNamesBounds() {
        let error = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.resolve(flags: ConfigurationFlags(["--access-token-ttl": "2d"]), environment: [:])
        }
        #expect(error?.reason.contains("from 1m to 1d") == true, "reason was \(error?.reason ?? "nil")")
    }

    @Test("a file key out of bounds is refused naming the file and key")
    func fileKeyRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/limen.yaml"
        try Data("refresh_reuse_grace: 2m".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.resolve(flags: ConfigurationFlags(["--config": path]), environment: [:])
        }
        #expect(error?.key == "\(path): refresh_reuse_grace")
    }

    @Test("a hash made at one scrypt cost still verifies after the cost is changed")
    func oldHashesKeepVerifying() async throws {
        let stored = try await PasswordHasher(parameters: .testing).hash("correct horse battery staple")
        let raised = PasswordHasher(parameters: PasswordHasher.Parameters(logN: 11, blockSize: 8, parallelism: 2))
        #expect(try await raised.verify("correct horse battery staple", against: stored))
        #expect(try await raised.hash("correct horse battery staple").hasPrefix("$scrypt$ln=11,r=8,p=2$"))
    }
}
