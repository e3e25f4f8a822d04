import ArgumentParser
import Foundation
import LimenServer
import LimenServerCore
import LimenServerStorage

/// `limen-server keys list|rotate`.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "List and rotate the signing keys.",
        subcommands: [List.self, Rotate.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the signing keys and when each signs.")

        @OptionGroup var data: DataOptions

        func run() async throws {
            let ring = try await KeysCommand.withRing(data) { store, masterKey in
                try await KeyRing.loadOrCreate(store: store, masterKey: masterKey, now: Date())
            }
            KeysCommand.print(ring)
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add new ES256 and RS256 keys, published now, signing after --publish-ahead seconds.",
            discussion: "Running servers reload the keys every minute, so keep --publish-ahead above that."
        )

        @OptionGroup var data: DataOptions

        @Option(help: "Seconds between publishing the new keys and their first signature.")
        var publishAhead: Int = 3600

        func validate() throws {
            guard publishAhead >= 0 else { throw ValidationError("--publish-ahead must not be negative") }
        }

        func run() async throws {
            let ring = try await KeysCommand.withRing(data) { store, masterKey in
                try await KeyRing.rotate(
                    store: store, masterKey: masterKey, now: Date(), publishAhead: TimeInterval(publishAhead))
            }
            KeysCommand.print(ring)
        }
    }

    static func withRing(
        _ data: DataOptions,
        _ body: (any Store, MasterKey) async throws -> KeyRing
    ) async throws -> KeyRing {
        let configuration = try data.configuration()
        return try await ServerComposition.withStore(configuration: configuration) { store in
            try await body(store, try MasterKey.loadOrCreate(at: configuration.masterKeyPath))
        }
    }

    static func print(_ ring: KeyRing) {
        let now = Date()
        for key in ring.keys {
            let state =
                switch ring.state(of: key, at: now) {
                case .signing: "signing"
                case .upcoming: "published, signs from \(key.activatesAt)"
                case .retiring: "retired, still published"
                case .retired: "retired"
                }
            Swift.print("\(key.kid)\t\(key.algorithm)\t\(state)")
        }
    }
}
