// swift-tools-version:6.2
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// libFuzzer harnesses, one executable each in Fuzz/<name> (run by Scripts/fuzz.sh, which adds the sanitizer flags on
/// its command line). They link LimenServerWire, not LimenServer, so their sanitizer build leaves out SwiftNIO,
/// Hummingbird and the database drivers. Fuzz/Support holds their checks and the SDK's driver (Fuzz/Support at the
/// repository root, linked, not copied).
let fuzzHarnesses = [
    "FormBody", "AdminJSON", "PhoneNumber", "CBOR", "DPoPTargetURI", "WebAuthnResponse", "OneTimePasswords",
    "EventCursor",
]

let package = Package(
    name: "LimenServer",
    // macOS 15: swift-configuration's APIs (the settings' environment variables) are available from it.
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LimenServer", targets: ["LimenServer"]),
        .executable(name: "limen-server", targets: ["LimenServerTool"]),
    ],
    dependencies: [
        .package(name: "Limen", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        // NIOSSL: the TLS configuration of PostgreSQL connections and of the SMTP and webhook mailers.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // Exact: SQLiteReadConnection calls SQLite through VaporCSQLite, a target of sqlite-nio that is not one of its
        // products (no public API runs a statement without its thread pool). SQLiteBundledLibraryTests fails loudly
        // when the bundled SQLite changes; raise this pin only together with that test.
        .package(url: "https://github.com/vapor/sqlite-nio.git", exact: "1.13.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // The settings' environment variables; no trait: the file and the flags have readers of their own (its YAML
        // provider cannot hold lists of mappings, its command-line provider splits values on commas).
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        // Spans (`withSpan`) in the stores, the domain and the shell; the no-op tracer unless `otel_endpoint` is set.
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        // The OTLP exporter of `otel_endpoint`: OTLP/HTTP only, so gRPC and its dependencies are not built.
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // What the server reads off the wire before trusting any of it (form bodies and queries, media types, the
        // admin API's strict JSON bodies, WebAuthn's CBOR, COSE keys and client data): no HTTP server, no database, so it
        // is fuzzed with sanitizers in CI.
        .target(
            name: "LimenServerWire",
            dependencies: [
                .product(name: "LimenWire", package: "Limen"),
                .product(name: "Crypto", package: "swift-crypto"),
                // RS256 credential keys (WebAuthn's COSE algorithm -257).
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        // Records, one small role protocol per aggregate, and the SQLite and PostgreSQL stores: no HTTP server.
        .target(
            name: "LimenServerStorage",
            dependencies: [
                "LimenServerWire",
                .product(name: "LimenWire", package: "Limen"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strictSettings
        ),
        // The domain: accounts, clients, keys, tokens, flows, federation, profiles, mail. No HTTP server and no HTTP
        // types, so no domain code can build a response; the shell maps its errors to HTTP.
        .target(
            name: "LimenServerCore",
            dependencies: [
                "LimenServerWire",
                "LimenServerStorage",
                .product(name: "LimenWire", package: "Limen"),
                // Trusted issuers' keys for token exchange (RFC 8693) and upstream sign-in: JWKSCache,
                // ProviderDiscovery, and the SDK's HTTPTransport (URLSession) to fetch them.
                .product(name: "LimenOIDC", package: "Limen"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LimenServer",
            dependencies: [
                "LimenServerWire",
                "LimenServerStorage",
                "LimenServerCore",
                .product(name: "LimenWire", package: "Limen"),
                // The SDK's HTTPTransport (URLSession), which the composition root gives the domain's outbound clients.
                .product(name: "LimenOIDC", package: "Limen"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "OTel", package: "swift-otel"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "LimenServerTool",
            dependencies: [
                "LimenServer",
                "LimenServerCore",
                "LimenServerStorage",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        // Micro-benchmarks (`swift run -c release LimenServerBenchmarks`): not run by tests or CI.
        .executableTarget(
            name: "LimenServerBenchmarks",
            dependencies: [
                "LimenServerWire",
                .product(name: "LimenWire", package: "Limen"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LimenServerTests",
            dependencies: [
                "LimenServer",
                "LimenServerCore",
                "LimenServerStorage",
                "LimenServerWire",
                .product(name: "LimenOIDC", package: "Limen"),
                .product(name: "LimenTestSupport", package: "Limen"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LimenServerWireTests",
            dependencies: [
                "LimenServerWire",
                "ServerFuzzSupport",
                // Subprocess and Peers: the WebAuthn tests compare with Python's cbor2 and cryptography.
                .product(name: "LimenTestSupport", package: "Limen"),
                .product(name: "LimenWire", package: "Limen"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ServerFuzzSupport",
            dependencies: [
                "LimenServerWire", .product(name: "LimenWire", package: "Limen"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Fuzz/Support",
            swiftSettings: strictSettings
        ),
    ]
        // ProfileData checks a profile write as the server does: it links LimenServerCore (with the stores and their
        // drivers), so its sanitizer build is too slow for CI and it runs by name only (`Scripts/fuzz.sh ProfileData`).
        + [
            .executableTarget(
                name: "FuzzProfileData",
                dependencies: ["ServerFuzzSupport", "LimenServerCore", .product(name: "LimenWire", package: "Limen")],
                path: "Fuzz/ProfileData",
                swiftSettings: strictSettings
            )
        ]
        + fuzzHarnesses.map { name in
            .executableTarget(
                name: "Fuzz\(name)",
                dependencies: ["ServerFuzzSupport"],
                path: "Fuzz/\(name)",
                swiftSettings: strictSettings
            )
        }
)
