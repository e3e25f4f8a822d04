import LimenServerStorage
import Testing
import VaporCSQLite

@Suite("The SQLite that sqlite-nio bundles")
struct SQLiteBundledLibraryTests {
    /// `SQLiteReadConnection` calls SQLite's C API through sqlite-nio's internal `VaporCSQLite` target, with the
    /// version pinned exactly in Package.swift. A new sqlite-nio release brings a new SQLite build: this fails then,
    /// so the read connection is checked against it before the pin moves.
    @Test("it is the SQLite the read connection was written and tested against")
    func bundledVersion() {
        #expect(String(cString: sqlite_nio_sqlite3_libversion()) == "3.54.1")
    }
}
