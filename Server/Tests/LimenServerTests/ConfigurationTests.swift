import Testing

@testable import LimenServer

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

        let flags = ConfigurationFlags(host: "127.0.0.1", port: "0", dataDirectory: "here", issuer: nil)
        let fromFlags = try ServerConfiguration.resolve(flags: flags, environment: environment)
        #expect(fromFlags.host == "127.0.0.1")
        #expect(fromFlags.port == 0)
        #expect(fromFlags.dataDirectory == "here")
        #expect(fromFlags.issuer == "https://id.example.com")

        let postgres = try ServerConfiguration.resolve(
            flags: ConfigurationFlags(), environment: ["LIMEN_DATABASE_URL": "postgres://limen:pw@127.0.0.1/limen"])
        #expect(postgres.databaseURL == "postgres://limen:pw@127.0.0.1/limen")
        #expect(fromFlags.databaseURL == nil)

        let ipv6 = try ServerConfiguration.resolve(flags: ConfigurationFlags(host: "::1"), environment: [:])
        #expect(ipv6.issuer(boundPort: 8080) == "http://[::1]:8080")
    }

    @Test(
        "a bad value is refused with an error naming the flag or variable it came from",
        arguments: [
            (ConfigurationFlags(port: "http"), [:], "--port"),
            (ConfigurationFlags(port: "70000"), [:], "--port"),
            (ConfigurationFlags(), ["LIMEN_PORT": "-1"], "LIMEN_PORT"),
            (ConfigurationFlags(host: ""), [:], "--host"),
            (ConfigurationFlags(), ["LIMEN_DATA_DIR": ""], "LIMEN_DATA_DIR"),
            (ConfigurationFlags(issuer: "id.example.com"), [:], "--issuer"),
            (ConfigurationFlags(issuer: "https://id.example.com/"), [:], "--issuer"),
            (ConfigurationFlags(issuer: "https://id.example.com?x=1"), [:], "--issuer"),
            (ConfigurationFlags(), ["LIMEN_ISSUER": "http://id.example.com"], "LIMEN_ISSUER"),
            (ConfigurationFlags(database: "mysql://limen@127.0.0.1/limen"), [:], "--database"),
            (ConfigurationFlags(), ["LIMEN_DATABASE_URL": "limen.sqlite"], "LIMEN_DATABASE_URL"),
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
