import Foundation
import Testing

@testable import LimenServer
@testable import LimenServerCore
@testable import LimenServerStorage

/// The dialect layer: a table written once is created the same way in SQLite and PostgreSQL, and both databases end
/// up with the same schema.
@Suite("Schema written once for both dialects")
struct SchemaDefinitionTests {
    /// A table with every column kind, a default, a reference and a unique pair.
    static let notes = TableDefinition(
        name: "test_notes",
        columns: [
            ColumnDefinition(name: "id", kind: .text),
            ColumnDefinition(name: "user_id", kind: .text, references: ("users", "id", .cascade)),
            ColumnDefinition(name: "title", kind: .text, isNullable: true),
            ColumnDefinition(name: "revision", kind: .integer, defaultValue: .integer(1)),
            ColumnDefinition(name: "pinned", kind: .boolean, defaultValue: .bool(false)),
            ColumnDefinition(name: "body", kind: .bytes, isNullable: true),
            ColumnDefinition(name: "created_at", kind: .time),
        ],
        primaryKey: ["id"],
        unique: [["user_id", "title"]]
    )

    static let migration = SchemaMigration(
        version: 1000,
        name: "test notes",
        changes: [
            .createTable(notes),
            .createIndex(name: "test_notes_created_at", table: "test_notes", columns: ["created_at"]),
            .addColumn(table: "test_notes", ColumnDefinition(name: "archived_at", kind: .time, isNullable: true)),
        ]
    )

    @Test("a table definition becomes each dialect's CREATE TABLE")
    func createStatements() {
        #expect(
            Self.notes.createStatement(in: .sqlite) == """
                CREATE TABLE test_notes (
                    id TEXT NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    title TEXT,
                    revision INTEGER NOT NULL DEFAULT 1,
                    pinned INTEGER NOT NULL DEFAULT 0,
                    body BLOB,
                    created_at INTEGER NOT NULL,
                    PRIMARY KEY (id),
                    UNIQUE (user_id, title)
                )
                """)
        #expect(
            Self.notes.createStatement(in: .postgres) == """
                CREATE TABLE test_notes (
                    id TEXT NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    title TEXT,
                    revision BIGINT NOT NULL DEFAULT 1,
                    pinned BOOLEAN NOT NULL DEFAULT FALSE,
                    body BYTEA,
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (id),
                    UNIQUE (user_id, title)
                )
                """)
    }

    @Test("one query binds and reads every kind of value in either dialect", arguments: StoreUnderTest.allCases)
    func roundTrip(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await kind.make()
        do {
            let sql = try #require(store as? any SQLStore)
            try await Self.roundTrip(on: sql)
        } catch {
            await cleanup()
            throw error
        }
        await cleanup()
    }

    private static func roundTrip(on store: some SQLStore) async throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for statement in Self.migration.migration(in: store.dialect).statements {
            try await store.execute(SQLQuery(stringLiteral: statement))
        }
        try await store.insertUserIfAbsent(UserRecord(id: "user-1", email: "ada@example.com", createdAt: now))
        let body = Data([0, 1, 2, 255])
        let title: String? = "it's \"quoted\"; DROP TABLE users; --"
        try await store.execute(
            """
            INSERT INTO test_notes (id, user_id, title, body, created_at)
            VALUES (\("n1"), \("user-1"), \(title), \(body), \(now))
            """
        )
        try await store.execute(
            "INSERT INTO test_notes (id, user_id, pinned, created_at) VALUES (\("n2"), \("user-1"), \(true), \(now))")
        let rows = try await store.execute("SELECT * FROM test_notes ORDER BY id")
        #expect(try rows.map { try $0.text("id") } == ["n1", "n2"])
        #expect(try rows[0].optionalText("title") == title)
        #expect(try rows[0].optionalData("body") == body)
        #expect(try rows[0].date("created_at") == now)
        #expect(try rows[0].integer("revision") == 1)
        #expect(try rows.map { try $0.bool("pinned") } == [false, true])
        #expect(try rows[1].optionalText("title") == nil)
        #expect(try rows[1].optionalDate("archived_at") == nil)
        #expect(throws: StorageError.self) { try rows[1].text("title") }
        #expect(throws: StorageError.self) { try rows[0].integer("title") }
        // The reference cascades, and the unique pair holds, in both.
        await #expect(throws: StorageError.self) {
            try await store.execute(
                "INSERT INTO test_notes (id, user_id, title, created_at) VALUES ('n3', 'user-1', \(title), 0)")
        }
        try await store.deleteUser(id: "user-1")
        #expect(try await store.execute("SELECT id FROM test_notes").isEmpty)
    }

    @Test("SQLite and PostgreSQL have the same tables, columns, kinds and nullability after every migration")
    func sameSchema() async throws {
        // PostgreSQL first: a SQLite store released unclosed (when PostgreSQL cannot be had) stops the process.
        let (postgres, _, cleanup) = try await PostgresTestDatabase.make()
        let sqlite = try await SQLiteStore.inMemory()
        try await sqlite.migrate()
        let sqliteColumns = try await sqlite.execute(
            """
            SELECT m.name AS table_name, c.name AS column_name, c.type AS type, c."notnull" AS not_null, c.pk AS pk
            FROM sqlite_master m, pragma_table_info(m.name) c
            WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
            """
        ).map { row in
            let type = try row.text("type")
            return try SchemaColumn(
                table: row.text("table_name"), column: row.text("column_name"),
                kind: type == "BLOB" ? "bytes" : type == "TEXT" ? "text" : "number",
                isNullable: !(row.bool("not_null") || row.integer("pk") > 0))
        }
        let postgresColumns = try await postgres.execute(
            """
            SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
            WHERE table_schema = 'public'
            """
        ).map { row in
            let type = try row.text("data_type")
            return try SchemaColumn(
                table: row.text("table_name"), column: row.text("column_name"),
                kind: type == "bytea" ? "bytes" : type == "text" ? "text" : "number",
                isNullable: row.text("is_nullable") == "YES")
        }
        await sqlite.close()
        await cleanup()
        #expect(sqliteColumns.count > 50)
        #expect(Set(sqliteColumns) == Set(postgresColumns))
    }
}

/// A column as both databases describe it: numbers (integers, times, booleans) are one kind.
private struct SchemaColumn: Hashable {
    let table: String
    let column: String
    let kind: String
    let isNullable: Bool
}
