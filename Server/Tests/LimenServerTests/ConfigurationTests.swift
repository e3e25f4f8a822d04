import Foundation
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Configuration from flags and environment")
struct ConfigurationTests {
    @Test("with nothing given: 127.0.0.1:8080, ./limen-data, issuer from host and port")
    func defaults() throws {
        let configuration = try ServerConfiguration.resolve(flags: ConfigurationFlags(), environment: [:])
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.dataDirectory == "limen-data")
        #expect(configuration.databasePath == "limen-data/limen.sqlite")
        #expect(configuration.masterKeyPath == "limen-data/master.key")
        #expect(configuration.issuer(boundPort: 8080) == "http://127.0.0.1:8080")
    }

    @Test("flags win over environment variables, which win over defaults")
    func precedence() throws {
        let environment = [
            "LIMEN_HOST": "::1", "LIMEN_PORT": "9000", "LIMEN_DATA_DIR": "/var/lib/limen",
            "LIMEN_ISSUER": "https://id.example.com",
        ]
        let fromEnvironment = try ServerConfiguration.resolve(flags: ConfigurationFlags(), environment: environment)
        #expect(fromEnvironment.host == "::1")
        #expect(fromEnvironment.port == 9000)
        #expect(fromEnvironment.dataDirectory == "/var/lib/limen")
        #expect(fromEnvironment.issuer == "https://id.example.com")

        let flags = ConfigurationFlags(["--host": "127.0.0.1", "--port": "0", "--data-dir": "here"])
        let fromFlags = try ServerConfiguration.resolve(flags: flags, environment: environment)
        #expect(fromFlags.host == "127.0.0.1")
        #expect(fromFlags.port == 0)
        #expect(fromFlags.dataDirectory == "here")
        #expect(fromFlags.issuer == "https://id.example.com")

        let postgres = try ServerConfiguration.resolve(
            flags: ConfigurationFlags(), environment: ["LIMEN_DATABASE_URL": "postgres://limen:pw@127.0.0.1/limen"])
        #expect(postgres.databaseURL == "postgres://limen:pw@127.0.0.1/limen")
        #expect(fromFlags.databaseURL == nil)
        #expect(fromFlags.databasePoolSize == 20)
        let pool = try ServerConfiguration.resolve(
            flags: ConfigurationFlags(["--database-pool-size": "8"]), environment: ["LIMEN_DATABASE_POOL_SIZE": "50"])
        #expect(pool.databasePoolSize == 8)

        let ipv6 = try ServerConfiguration.resolve(flags: ConfigurationFlags(["--host": "::1"]), environment: [:])
        #expect(ipv6.issuer(boundPort: 8080) == "http://[::1]:8080")
    }

    @Test(
        "a bad value is refused with an error naming the flag or variable it came from",
        arguments: [
            (ConfigurationFlags(["--port": "http"]), [:], "--port"),
            (ConfigurationFlags(["--port": "70000"]), [:], "--port"),
            (ConfigurationFlags(), ["LIMEN_PORT": "-1"], "LIMEN_PORT"),
            (ConfigurationFlags(["--host": ""]), [:], "--host"),
            (ConfigurationFlags(), ["LIMEN_DATA_DIR": ""], "LIMEN_DATA_DIR"),
            (ConfigurationFlags(["--issuer": "id.example.com"]), [:], "--issuer"),
            (ConfigurationFlags(["--issuer": "https://id.example.com/"]), [:], "--issuer"),
            (ConfigurationFlags(["--issuer": "https://id.example.com?x=1"]), [:], "--issuer"),
            (ConfigurationFlags(), ["LIMEN_ISSUER": "http://id.example.com"], "LIMEN_ISSUER"),
            (ConfigurationFlags(["--database": "mysql://limen@127.0.0.1/limen"]), [:], "--database"),
            (ConfigurationFlags(), ["LIMEN_DATABASE_URL": "limen.sqlite"], "LIMEN_DATABASE_URL"),
            (ConfigurationFlags(["--database-pool-size": "0"]), [:], "--database-pool-size"),
            (ConfigurationFlags(), ["LIMEN_DATABASE_POOL_SIZE": "many"], "LIMEN_DATABASE_POOL_SIZE"),
            (ConfigurationFlags(["--sign-in-rate-limit": "5"]), [:], "--sign-in-rate-limit"),
            (ConfigurationFlags(), ["LIMEN_SIGN_IN_RATE_LIMIT": "0/s"], "LIMEN_SIGN_IN_RATE_LIMIT"),
            (ConfigurationFlags(["--sign-up": "maybe"]), [:], "--sign-up"),
            (ConfigurationFlags(), ["LIMEN_SIGN_UP": ""], "LIMEN_SIGN_UP"),
        ] as [(ConfigurationFlags, [String: String], String)]
    )
    func badValueNamesItsKey(flags: ConfigurationFlags, environment: [String: String], key: String) {
        let error = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.resolve(flags: flags, environment: environment)
        }
        #expect(error?.key == key)
        #expect(error?.errorDescription?.hasPrefix("Invalid \(key) ") == true)
        #expect(error?.errorDescription?.contains("limen@") == false, "a database URL may hold a password")
    }
}

@Suite("Sign-in settings")
struct SignInSettingsTests {
    @Test("by default sign-up is on and sign-in POSTs are limited to 1/s per address in bursts of 3")
    func defaults() throws {
        let configuration = try ServerConfiguration.resolve(flags: ConfigurationFlags(), environment: [:])
        #expect(configuration.signUpEnabled)
        #expect(configuration.signInRateLimit == RateLimit(burst: 3, perSecond: 1))
        #expect(configuration.postRateLimit == RateLimit(burst: 60, perSecond: 20))
    }

    @Test("sign_up and sign_in_rate_limit come from the flag, else the variable, else the file")
    func sources() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/limen.yaml"
        try Data("sign_up: disabled\nsign_in_rate_limit: 0.5/s\n".utf8).write(to: URL(fileURLWithPath: path))
        let fromFile = try ServerConfiguration.resolve(flags: ConfigurationFlags(["--config": path]), environment: [:])
        #expect(!fromFile.signUpEnabled)
        #expect(fromFile.signInRateLimit == RateLimit(burst: 1.5, perSecond: 0.5))
        let environment = ["LIMEN_SIGN_UP": "enabled", "LIMEN_SIGN_IN_RATE_LIMIT": "off", "LIMEN_CONFIG": path]
        let fromEnvironment = try ServerConfiguration.resolve(flags: ConfigurationFlags(), environment: environment)
        #expect(fromEnvironment.signUpEnabled)
        #expect(fromEnvironment.signInRateLimit == nil)
        let fromFlags = try ServerConfiguration.resolve(
            flags: ConfigurationFlags(["--sign-in-rate-limit": "2/s", "--sign-up": "disabled"]),
            environment: environment)
        #expect(!fromFlags.signUpEnabled)
        #expect(fromFlags.signInRateLimit == RateLimit(burst: 6, perSecond: 2))
    }
}

@Suite("Configuration file")
struct ConfigurationFileTests {
    private func withFile(_ text: String, _ body: (String) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/limen.yaml"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try body(path)
    }

    @Test("YAML settings apply under the environment and flags")
    func yamlUnderEnvironmentAndFlags() throws {
        let yaml = """
            host: 0.0.0.0
            mail_url: smtp://mail.example:25
            port: 9090
            data_dir: /var/lib/limen
            issuer: https://id.example.com
            post_rate_limit: 5/s
            authorize_rate_limit: 2/s
            database_pool_size: 4
            """
        try withFile(yaml) { path in
            let fromFile = try ServerConfiguration.resolve(
                flags: ConfigurationFlags(["--config": path]), environment: [:])
            #expect(fromFile.host == "0.0.0.0")
            #expect(fromFile.port == 9090)
            #expect(fromFile.dataDirectory == "/var/lib/limen")
            #expect(fromFile.issuer == "https://id.example.com")
            #expect(fromFile.postRateLimit == RateLimit(burst: 15, perSecond: 5))
            #expect(fromFile.authorizeRateLimit == RateLimit(burst: 6, perSecond: 2))
            #expect(fromFile.databasePoolSize == 4)

            let layered = try ServerConfiguration.resolve(
                flags: ConfigurationFlags(["--port": "7000"]),
                environment: [
                    "LIMEN_CONFIG": path, "LIMEN_HOST": "127.0.0.1", "LIMEN_POST_RATE_LIMIT": "off",
                    "LIMEN_AUTHORIZE_RATE_LIMIT": "off",
                ]
            )
            #expect(layered.port == 7000)
            #expect(layered.host == "127.0.0.1")
            #expect(layered.dataDirectory == "/var/lib/limen")
            #expect(layered.postRateLimit == nil)
            #expect(layered.authorizeRateLimit == nil)
        }
    }

    @Test("a JSON file is read the same way")
    func json() throws {
        try withFile(#"{"port": 8443, "database_url": "postgres://limen@127.0.0.1/limen"}"#) { path in
            let configuration = try ServerConfiguration.resolve(
                flags: ConfigurationFlags(["--config": path]), environment: [:])
            #expect(configuration.port == 8443)
            #expect(configuration.databaseURL == "postgres://limen@127.0.0.1/limen")
        }
    }

    @Test(
        "an unknown, nested, malformed or invalid setting is refused, naming the file and key",
        arguments: [
            ("prot: 8080", ": prot"),
            ("port:\n  value: 8080", ": port"),
            ("port: [8080", "--config"),
            ("- port", "--config"),
            ("port: eighty", ": port"),
            ("post_rate_limit: fast", ": post_rate_limit"),
            ("authorize_rate_limit: 0/s", ": authorize_rate_limit"),
            ("database_pool_size: 1001", ": database_pool_size"),
        ]
    )
    func refused(_ text: String, _ keySuffix: String) throws {
        try withFile(text) { path in
            let error = #expect(throws: ConfigurationError.self) {
                try ServerConfiguration.resolve(flags: ConfigurationFlags(["--config": path]), environment: [:])
            }
            #expect(error?.key.hasSuffix(keySuffix) == true, "key was \(error?.key ?? "nil")")
        }
    }

    @Test("a missing file is refused")
    func missingFile() {
        let error = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.resolve(
                flags: ConfigurationFlags(["--config": "/nonexistent/limen.yaml"]), environment: [:])
        }
        #expect(error?.key == "--config")
    }
}
