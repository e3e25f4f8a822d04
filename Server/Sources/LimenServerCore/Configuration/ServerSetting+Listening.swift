import Foundation
import LimenServerStorage

extension ServerSetting {
    /// `host`: the address to listen on.
    static let host = ServerSetting(
        "host", help: "The address to listen on.", default: "127.0.0.1"
    ) { value, configuration throws(ConfigurationError) in
        guard !value.text.isEmpty, !value.text.contains("/"), !value.text.contains(" ") else {
            throw value.refused("expected an IP address or host name")
        }
        configuration.host = value.text
    }

    /// `port`: the port to listen on.
    static let port = ServerSetting(
        "port", help: "The port to listen on, 0 for any free one.", default: "8080"
    ) { value, configuration throws(ConfigurationError) in
        guard let port = Int(value.text), (0...65535).contains(port) else {
            throw value.refused("expected a port number from 0 to 65535")
        }
        configuration.port = port
    }

    /// `data_dir`: the folder of the SQLite database and the master key.
    static let dataDirectory = ServerSetting(
        "data_dir", help: "The folder for limen.sqlite and master.key.", default: "./limen-data"
    ) { value, configuration throws(ConfigurationError) in
        guard !value.text.isEmpty else { throw value.refused("expected a folder") }
        configuration.dataDirectory = value.text
    }

    /// `issuer`: the public issuer URL.
    static let issuer = ServerSetting(
        "issuer", help: "The public issuer URL.", default: "http://<host>:<port>"
    ) { value, configuration throws(ConfigurationError) in
        if let reason = ServerConfiguration.issuerProblem(value.text) { throw value.refused(reason) }
        configuration.issuer = value.text
    }

    /// `database_url`: PostgreSQL instead of SQLite.
    static let database = ServerSetting(
        "database_url", flag: "--database",
        help: "A postgres:// URL instead of SQLite (the variable keeps its password out of ps).",
        hiddenValue: "(hidden)"
    ) { value, configuration throws(ConfigurationError) in
        guard let scheme = URLComponents(string: value.text)?.scheme, ["postgres", "postgresql"].contains(scheme) else {
            throw value.refused("expected postgres://user:password@host:port/database")
        }
        configuration.databaseURL = value.text
    }

    /// `database_pool_size`: the most PostgreSQL connections of a node.
    static let databasePoolSize = ServerSetting(
        "database_pool_size", help: "The most PostgreSQL connections this node opens.",
        default: "\(PostgresStore.defaultMaximumConnections)"
    ) { value, configuration throws(ConfigurationError) in
        configuration.databasePoolSize = try value.integer(
            in: PostgresStore.maximumConnectionsRange, expected: "a number of connections")
    }

    /// `trusted_proxies`: the reverse proxies whose `X-Forwarded-For` names the client address.
    static let trustedProxies = ServerSetting(
        "trusted_proxies", flag: "--trusted-proxy",
        help: "A reverse proxy (an IP address) whose X-Forwarded-For names the client address.", isList: true
    ) { value, configuration throws(ConfigurationError) in
        let entries = value.items
        guard let proxies = TrustedProxies(entries) else {
            throw value.refused(
                "expected IP addresses (no ranges, no ports), separated by commas",
                showing: entries.first { TrustedProxies.canonical($0) == nil })
        }
        configuration.trustedProxies = proxies
    }

    /// `resources`: the APIs access tokens may be issued for.
    static let resources = ServerSetting(
        "resources", flag: "--resource",
        help: "An API access tokens may be issued for (an RFC 8707 resource indicator, an absolute URI).",
        isList: true
    ) { value, configuration throws(ConfigurationError) in
        let resources = value.items
        if let invalid = resources.first(where: { !ResourceIndicator.isValid($0) }) {
            throw value.refused(
                "expected absolute URIs without a fragment (RFC 8707), separated by commas", showing: invalid)
        }
        configuration.resources = resources
    }

    /// `header_read_timeout`: how long a client may take to send a request head.
    static let headerReadTimeout = duration(
        "header_read_timeout", help: "How long a client may take to send a request head", default: "10s",
        in: ConnectionTimeouts.headerReadRange, like: "30 or 30s", setting: \.connectionTimeouts.headerRead)

    /// `idle_timeout`: how long a connection may stay idle.
    static let idleTimeout = duration(
        "idle_timeout", help: "How long a connection may stay idle", default: "60s",
        in: ConnectionTimeouts.idleRange, like: "30 or 30s", setting: \.connectionTimeouts.idle)
}
