// swift-tools-version:6.2
import PackageDescription

let strictSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

/// libFuzzer harnesses, one executable each in Fuzz/<name> (run by Scripts/fuzz.sh, which adds the sanitizer flags on
/// its command line: flags written here would be unsafe flags, and a package with those cannot be depended on by
/// version).
let fuzzHarnesses: [(name: String, dependencies: [Target.Dependency])] = [
    ("JSON", []),
    ("JWS", ["LimenOIDC"]),
    ("JWE", []),
    ("JWKS", ["LimenOIDC"]),
    ("AuthorizationResponse", ["Limen", "LimenOIDC"]),
    ("FlowDocument", []),
    ("BearerChallenge", ["LimenOIDC"]),
]

let package = Package(
    name: "Limen",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "Limen", targets: ["Limen", "LimenApple"]),
        .library(name: "LimenOIDC", targets: ["LimenOIDC"]),
        .library(name: "LimenWire", targets: ["LimenWire"]),
        .library(name: "LimenLoopback", targets: ["LimenLoopback"]),
        // An HTTP transport on SwiftNIO that sees the certificates servers present, so pinning works on Linux (whose
        // URLSession never shows them): a product of its own, so that only those who want NIO and BoringSSL get them.
        .library(name: "LimenNIOTransport", targets: ["LimenNIOTransport"]),
        // SwiftUI components (Apple only: LimenUI compiles to nothing elsewhere) over their cross-platform models.
        .library(name: "LimenUI", targets: ["LimenUI", "LimenUIModel"]),
        .executable(name: "limen", targets: ["LimenCLI"]),
        // Limen's own test support, shared by this package's tests and the server's (Server/Package.swift): not a
        // stable API, as HummingbirdTesting and NIOTestUtils are to their packages.
        .library(name: "LimenTestSupport", targets: ["LimenTestSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swhitty/FlyingFox.git", from: "0.27.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "LimenWire",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LimenOIDC",
            dependencies: [
                "LimenWire",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "Limen",
            dependencies: [
                "LimenOIDC",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                // Certificate pinning reads the public key of each certificate a server presents.
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LimenLoopback",
            dependencies: [
                "Limen",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LimenNIOTransport",
            dependencies: [
                "Limen",
                "LimenOIDC",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LimenApple",
            dependencies: ["Limen"],
            swiftSettings: strictSettings
        ),
        // What LimenUI's views show and do (flow forms, sign-in state), as Observation models that build and are
        // tested on Linux; the views themselves stay thin.
        .target(
            name: "LimenUIModel",
            dependencies: ["Limen"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LimenUI",
            dependencies: ["Limen", "LimenApple", "LimenUIModel"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "LimenCLI",
            dependencies: [
                "Limen",
                "LimenLoopback",
                "LimenNIOTransport",
                "LimenOIDC",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "LimenBenchmarks",
            dependencies: [
                "Limen",
                "LimenOIDC",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        // Generic test helpers (subprocesses with deadlines, free ports, locks, gates, test clocks), and a software
        // passkey authenticator both packages' tests answer WebAuthn ceremonies with.
        .target(
            name: "LimenTestSupport",
            dependencies: ["LimenWire", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "TestSupport",
            dependencies: [
                "LimenTestSupport",
                "LimenOIDC",
                "Limen",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: strictSettings
        ),
        .target(
            name: "FuzzSupport",
            dependencies: ["LimenWire"],
            path: "Fuzz/Support",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LimenWireTests",
            dependencies: ["LimenTestSupport", "LimenWire", "TestSupport", "FuzzSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LimenOIDCTests",
            dependencies: ["LimenTestSupport", "LimenOIDC", "TestSupport"],
            swiftSettings: strictSettings
        ),
        // The app of LimenServerKilledRefreshTests: restores a shared file-store session and refreshes it in a loop
        // until the test kills it (issue 25 §1.4).
        .executableTarget(
            name: "RefreshLoop",
            dependencies: ["Limen", "LimenOIDC"],
            path: "Tests/RefreshLoop",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LimenTests",
            dependencies: [
                "LimenTestSupport", "Limen", "TestSupport", "RefreshLoop",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LimenUIModelTests",
            dependencies: ["LimenTestSupport", "LimenUIModel", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LimenNIOTransportTests",
            dependencies: ["LimenTestSupport", "LimenNIOTransport", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LimenLoopbackTests",
            dependencies: ["LimenTestSupport", "LimenLoopback", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LimenTestSupportTests",
            dependencies: ["LimenTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LimenExamplesTests",
            dependencies: [
                "Limen", "LimenApple", "LimenLoopback", "LimenNIOTransport", "LimenOIDC", "LimenUI", "LimenUIModel",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LimenCLITests",
            dependencies: ["LimenTestSupport", "LimenCLI", "TestSupport"],
            swiftSettings: strictSettings
        ),
    ]
        + fuzzHarnesses.map { harness in
            .executableTarget(
                name: "Fuzz\(harness.name)",
                dependencies: ["FuzzSupport"] + harness.dependencies,
                path: "Fuzz/\(harness.name)",
                swiftSettings: strictSettings
            )
        }
)

// LimenApple's Combine bridge, run on Linux against OpenCombine (its file is linked into the test target). Declared
// only when the manifest is read on Linux, so an Apple app depending on Limen never resolves OpenCombine.
#if os(Linux)
    package.dependencies.append(.package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"))
    package.targets.append(
        .testTarget(
            name: "LimenCombineTests",
            dependencies: ["Limen", .product(name: "OpenCombine", package: "OpenCombine")],
            swiftSettings: strictSettings + [.define("LIMEN_OPENCOMBINE")]
        )
    )
#endif
