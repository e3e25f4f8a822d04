import ArgumentParser
import Foundation
import LimenServer
import LimenServerCore
import LimenServerStorage

/// The data folder, shared by the administration commands.
struct DataOptions: ParsableArguments {
    @Option(help: "The folder holding limen.sqlite (env LIMEN_DATA_DIR; default ./limen-data).")
    var dataDir: String?

    @Option(help: "A postgres:// URL instead of SQLite (env LIMEN_DATABASE_URL, which keeps the password out of ps).")
    var database: String?

    @Option(help: "A YAML or JSON file of settings (env LIMEN_CONFIG).")
    var config: String?

    func configuration() throws -> ServerConfiguration {
        do {
            return try ServerConfiguration.resolve(
                flags: ConfigurationFlags(["--data-dir": dataDir, "--database": database, "--config": config]),
                environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError(error.errorDescription ?? error.code)
        }
    }
}

/// `limen-server clients add|list|remove|rotate-secret`.
struct ClientsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clients",
        abstract: "Register, list and remove OAuth clients, and replace their secrets.",
        subcommands: [Add.self, List.self, Remove.self, RotateSecret.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a client; a confidential client's secret is printed once and stored only as a hash."
        )

        @OptionGroup var data: DataOptions

        @Option(help: "The client_id.")
        var id: String

        @Option(help: "A display name (default: the client_id).")
        var name: String?

        @Option(name: .customLong("redirect-uri"), help: "A redirect URI (repeat for several).")
        var redirectURIs: [String] = []

        @Option(name: .customLong("post-logout-redirect-uri"), help: "A post-logout redirect URI (repeatable).")
        var postLogoutRedirectURIs: [String] = []

        @Flag(help: "A public client (no secret, PKCE required). Default: confidential.")
        var `public` = false

        @Flag(help: "A native app: public, loopback redirects on any port, private-use schemes.")
        var native = false

        @Flag(help: "First-party: consent is skipped.")
        var firstParty = false

        @Flag(
            name: .customLong("app2app-host"),
            help: "The provider's own app, approving other apps' sign-ins for its user (with --native --first-party)."
        )
        var appToAppHost = false

        @Flag(
            name: .customLong("require-dpop"),
            help: "Its tokens must be DPoP-bound: token requests without a DPoP proof are refused (RFC 9449)."
        )
        var requireDPoP = false

        @Option(
            name: .customLong("require-acr"),
            help:
                "The acr every sign-in for it must reach, whatever its requests ask: mfa (two factors) or phr (a passkey)."
        )
        var requireACR: String?

        @Option(help: "ID token signing algorithm: ES256 or RS256.")
        var idTokenAlg = "ES256"

        @Option(
            name: .customLong("access-token-ttl"),
            help: "This client's access token lifetime, like 300, 5m or 1h (1m–24h; default: the server's)."
        )
        var accessTokenTTL: DurationArgument?

        @Option(
            name: .customLong("refresh-token-ttl"),
            help: "This client's refresh token lifetime, like 86400, 12h or 30d (1m–365d; default: the server's)."
        )
        var refreshTokenTTL: DurationArgument?

        @Flag(help: "A legacy confidential client that may leave out PKCE (OAuth 2.1 requires it; avoid).")
        var allowNoPKCE = false

        @Option(
            name: .customLong("grant-type"),
            help: """
                A grant type the client may use (repeatable): authorization_code, refresh_token, \
                urn:ietf:params:oauth:grant-type:device_code, urn:ietf:params:oauth:grant-type:token-exchange \
                (default: the first two).
                """
        )
        var grantTypes: [String] = []

        func run() async throws {
            let registration = ClientRegistration(
                id: id,
                name: name,
                kind: self.public || native ? .public : .confidential,
                isNative: native,
                isFirstParty: firstParty,
                redirectURIs: redirectURIs,
                postLogoutRedirectURIs: postLogoutRedirectURIs,
                idTokenSignedResponseAlg: idTokenAlg,
                accessTokenLifetime: accessTokenTTL?.seconds,
                refreshTokenLifetime: refreshTokenTTL?.seconds,
                allowsNoPKCE: allowNoPKCE,
                grantTypes: grantTypes.isEmpty ? nil : grantTypes,
                isAppToAppHost: appToAppHost,
                requiresDPoP: requireDPoP,
                requiredACR: requireACR
            )
            let (client, secret): (ClientRecord, String?)
            do {
                (client, secret) = try registration.record(now: Date())
            } catch {
                throw ValidationError(error.errorDescription ?? error.code)
            }
            let inserted = try await ServerComposition.withStore(configuration: data.configuration()) { store in
                try await store.insertClientIfAbsent(client)
            }
            guard inserted else {
                throw ValidationError(ClientRegistrationError.alreadyExists(id).errorDescription ?? "exists")
            }
            print("Registered \(client.kind.rawValue) client \(client.id)")
            if let secret {
                print("client_secret: \(secret)")
                print("Keep it now: only its hash is stored, it cannot be shown again.")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List registered clients.")

        @OptionGroup var data: DataOptions

        func run() async throws {
            let clients = try await ServerComposition.withStore(configuration: data.configuration()) { store in
                try await store.clients()
            }
            for client in clients where !SeedClients.isInternal(client.id) {
                var traits = [client.kind.rawValue]
                if client.isNative { traits.append("native") }
                if client.isFirstParty { traits.append("first-party") }
                if client.isAppToAppHost { traits.append("app2app-host") }
                if client.requiresDPoP { traits.append("require-dpop") }
                if let acr = client.requiredACR { traits.append("require-acr=\(acr)") }
                if client.allowsNoPKCE { traits.append("no-pkce") }
                if let seconds = client.accessTokenLifetime {
                    traits.append("access-token-ttl=\(DurationSetting.text(for: seconds))")
                }
                if let seconds = client.refreshTokenLifetime {
                    traits.append("refresh-token-ttl=\(DurationSetting.text(for: seconds))")
                }
                print("\(client.id)\t\(traits.joined(separator: ","))\t\(client.redirectURIs.joined(separator: " "))")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a client and its pending codes.",
            discussion: """
                Running servers keep client records for up to 5 seconds (ClientCache): they refuse the client within \
                that time. The admin API (DELETE /admin/clients/{id}) makes the node that serves it refuse it at once.
                """
        )

        @OptionGroup var data: DataOptions

        @Option(help: "The client_id.")
        var id: String

        func run() async throws {
            guard !SeedClients.isInternal(id) else {
                throw ValidationError("\(id) is Limen Server's own client (the account page's): it cannot be removed")
            }
            let removed = try await ServerComposition.withStore(configuration: data.configuration()) { store in
                try await store.deleteClient(id: id)
            }
            guard removed else { throw ValidationError("No client with ID \(id)") }
            print("Removed client \(id)")
        }
    }
}

extension ClientsCommand {
    /// `limen-server clients rotate-secret --id`: a confidential client's new secret, as the admin API gives it.
    struct RotateSecret: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-secret",
            abstract: "Give a confidential client a new secret, printed once and stored only as a hash.",
            discussion: """
                The old secret stops working at once for new requests; running servers keep client records for up \
                to 5 seconds (ClientCache). Recorded as admin.client_secret_rotated, actor command_line.
                """
        )

        @OptionGroup var data: DataOptions

        @Option(help: "The client_id.")
        var id: String

        func run() async throws {
            let secret = try await ServerComposition.withStore(configuration: data.configuration()) { store in
                let clients = AdminClients(
                    store: store, cache: ClientCache(now: Date.init), events: SecurityEventRecorder(now: Date.init),
                    now: Date.init)
                do throws(AdminError) {
                    return try await clients.rotateSecret(id: id, origin: .commandLine)
                } catch {
                    throw ValidationError(error.errorDescription ?? error.code)
                }
            }
            guard let secret else { throw ValidationError("No client with ID \(id)") }
            print("client_secret: \(secret)")
            print("Keep it now: only its hash is stored, it cannot be shown again.")
        }
    }
}

/// A duration on the command line, written as settings write it (``DurationSetting``): `300`, `5m`, `12h`, `30d`.
struct DurationArgument: ExpressibleByArgument {
    /// The length in seconds.
    let seconds: TimeInterval

    init?(argument: String) {
        guard let seconds = DurationSetting.seconds(in: argument) else { return nil }
        self.seconds = seconds
    }
}
