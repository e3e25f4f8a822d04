import Testing

@testable import LimenServerCore

@Suite("The start-up banner names the database a node keeps its data in")
struct DatabaseDescriptionTests {
    @Test("PostgreSQL by host, port, database and pool size, never its user or password; else the SQLite file")
    func description() throws {
        let sqlite = try ServerConfiguration.resolve(flags: ConfigurationFlags(), environment: [:])
        #expect(sqlite.databaseDescription == "SQLite limen-data/limen.sqlite")

        let url = "postgres://limen:s3cret@db.internal:6543/accounts?sslmode=require"
        let postgres = try ServerConfiguration.resolve(
            flags: ConfigurationFlags(), environment: ["LIMEN_DATABASE_URL": url, "LIMEN_DATABASE_POOL_SIZE": "8"])
        #expect(postgres.databaseDescription == "PostgreSQL db.internal:6543/accounts (pool of 8)")

        let defaultPort = try ServerConfiguration.resolve(
            flags: ConfigurationFlags(), environment: ["LIMEN_DATABASE_URL": "postgres://limen:pw@127.0.0.1/limen"])
        #expect(defaultPort.databaseDescription == "PostgreSQL 127.0.0.1:5432/limen (pool of 20)")
    }
}
