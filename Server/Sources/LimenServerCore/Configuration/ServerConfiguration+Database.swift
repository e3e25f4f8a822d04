import Foundation

extension ServerConfiguration {
    /// Which database keeps the data, for the start-up banner: `PostgreSQL 127.0.0.1:5432/limen (pool of 20)` (never
    /// the URL's user or password) or `SQLite ./limen-data/limen.sqlite`, so a node started without its database URL
    /// says so at once.
    public var databaseDescription: String {
        guard let databaseURL else { return "SQLite \(databasePath)" }
        guard let url = URLComponents(string: databaseURL), let host = url.host else { return "PostgreSQL" }
        let database = url.path.drop { $0 == "/" }
        return "PostgreSQL \(host):\(url.port ?? 5432)/\(database) (pool of \(databasePoolSize))"
    }
}
