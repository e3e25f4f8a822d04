import Foundation
import Testing

@testable import LimenServerCore

@Suite("Each setting declared once: its flag, variable and file key, secrecy and help from one table")
struct ServerSettingTests {
    @Test("names are unique, and each variable is the one swift-configuration's environment provider reads")
    func names() throws {
        let settings = ServerSetting.all
        #expect(Set(settings.map(\.fileKey)).count == settings.count)
        #expect(Set(settings.compactMap(\.flag)).count == settings.compactMap(\.flag).count)
        #expect(Set(settings.map(\.variable)).count == settings.count)
        for setting in settings {
            let lookup = SettingLookup(
                flags: ConfigurationFlags(), environment: [setting.variable: "x"], file: nil)
            #expect(lookup(setting)?.key == setting.variable, "\(setting.fileKey)")
        }
        #expect(ServerSetting.database.flag == "--database" && ServerSetting.database.variable == "LIMEN_DATABASE_URL")
        #expect(ServerSetting.trustedProxies.flag == "--trusted-proxy")
        #expect(ServerSetting.accessTokenLifetime.flag == "--access-token-ttl")
    }

    @Test("a secret has no flag, is refused on the command line and never shown in an error")
    func secrets() throws {
        for setting in [ServerSetting.metricsToken, .mailWebhookSecret] {
            #expect(setting.flag == nil && setting.hiddenValue == "(hidden)")
            let flag = "--" + setting.fileKey.replacingOccurrences(of: "_", with: "-")
            #expect(throws: ConfigurationError.self) { try ConfigurationFlags(arguments: [flag, "x"]) }
            let error = #expect(throws: ConfigurationError.self) {
                try ServerConfiguration.resolve(flags: ConfigurationFlags(), environment: [setting.variable: "short"])
            }
            #expect(error?.key == setting.variable && error?.value == "(hidden)")
            #expect(error?.errorDescription?.contains("short") == false)
        }
    }

    @Test(
        "the command line: --flag value, --flag=value, a list's flag repeated; unknown flags and missing values refused"
    )
    func arguments() throws {
        let flags = try ConfigurationFlags(arguments: [
            "--port", "0", "--issuer=http://127.0.0.1:9", "--resource", "https://a.example",
            "--resource=https://b.example", "--email-code-mail-budget", "5/h,10/d", "--config=limen.yaml",
        ])
        #expect(flags.value(of: .port) == "0")
        #expect(flags.value(of: .issuer) == "http://127.0.0.1:9")
        #expect(flags.value(of: .resources) == "https://a.example,https://b.example")
        #expect(flags.value(of: .emailCodeMailBudget) == "5/h,10/d", "a comma is part of the value")
        #expect(flags.configFile == "limen.yaml")
        for arguments in [["--prot", "0"], ["--port"], ["--port", "--host", "::1"], ["0"]] {
            #expect(throws: ConfigurationError.self, "\(arguments)") { try ConfigurationFlags(arguments: arguments) }
        }
    }

    @Test("the last value of a repeated flag wins, and a flag wins over the variable and the file")
    func precedence() throws {
        let configuration = try ServerConfiguration.resolve(
            flags: ConfigurationFlags(arguments: ["--port", "1", "--port", "2"]), environment: ["LIMEN_PORT": "3"])
        #expect(configuration.port == 2)
    }

    @Test("--help lists every setting but former names, with its variable, file key and default")
    func help() {
        let help = ServerSetting.helpText
        for setting in ServerSetting.all where !setting.isHidden {
            #expect(help.contains(setting.variable) && help.contains("| \(setting.fileKey)\n"), "\(setting.fileKey)")
            if let flag = setting.flag { #expect(help.contains(flag + " <value>")) }
        }
        #expect(
            help.contains(
                "--port <value> | LIMEN_PORT | port\n  The port to listen on, 0 for any free one. Default: 8080."))
        #expect(!help.contains("account_deletion_max_age"))
        #expect(
            help.contains("LIMEN_ACCESS_TOKEN_TTL | access_token_ttl\n  Access token lifetime, like 600 or 10m, 1m–1d.")
        )
    }
}
