import Foundation
import PostgresNIO
import SQLiteNIO

extension SQLiteResultRow: SQLRow {
    func sqlValue(_ column: String) throws(StorageError) -> SQLValue? {
        switch self.column(column) {
        case nil: return nil
        case .null: return .null
        case .integer(let integer): return .integer(Int64(integer))
        case .text(let text): return .text(text)
        case .blob(var buffer): return .blob(Data(buffer.readBytes(length: buffer.readableBytes) ?? []))
        case .float(let float): throw .corruptRow("\(column) is the real number \(float)")
        }
    }
}

extension PostgresRandomAccessRow: SQLRow {
    func sqlValue(_ column: String) throws(StorageError) -> SQLValue? {
        guard contains(column) else { return nil }
        let cell = self[column]
        guard cell.bytes != nil else { return .null }
        do {
            switch cell.dataType {
            case .bool: return .bool(try cell.decode(Bool.self))
            case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
            case .bytea: return .blob(try cell.decode(Data.self))
            default: return .text(try cell.decode(String.self))
            }
        } catch {
            throw .corruptRow("\(column): \(error)")
        }
    }
}
