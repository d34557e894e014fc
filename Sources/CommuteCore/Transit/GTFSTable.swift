import Foundation

/// One GTFS file read as GTFS writes CSV: a header naming the columns (in any order; a UTF-8
/// byte-order mark before it is dropped), then one record a line, fields separated by commas,
/// quoted where they hold commas or quotes (`""` inside quotes is one quote), spaces around a
/// field removed. Columns not asked for are ignored; a column asked for but absent reads as empty.
public struct GTFSTable {
    /// Why a line is not a record.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var reason: String
        public var description: String { "\(file), line \(line): \(reason)" }
    }

    /// The fields of one record, by the columns asked for.
    public struct Row {
        fileprivate var fields: [Substring]
        fileprivate let columns: [Int?]

        /// The field of the `index`th column asked for; empty when the file lacks the column or
        /// the record is short.
        public subscript(_ index: Int) -> Substring {
            guard let column = columns[index], column < fields.count else { return "" }
            return fields[column]
        }
    }

    /// Streams `file` of `archive`: `body` gets each record, with the fields of `columns` (in that
    /// order) reachable by index. Stops early when `body` returns false.
    public static func read(
        _ file: String, in archive: ZipArchive, columns: [String], _ body: (Row) throws -> Bool
    ) throws {
        var header: [Int?]?
        var number = 0
        try archive.forEachLine(of: file) { bytes in
            number += 1
            var text = Substring(decoding: bytes, as: UTF8.self)
            if text.hasSuffix("\r") { text = text.dropLast() }
            guard let indices = header else {
                if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
                let names = try fields(of: text, file: file, line: number).map { String($0) }
                header = columns.map { names.firstIndex(of: $0) }
                return true
            }
            if text.isEmpty { return true }
            return try body(Row(fields: try fields(of: text, file: file, line: number), columns: indices))
        }
    }

    /// The fields of one line, unquoted and trimmed.
    static func fields(of line: Substring, file: String, line number: Int) throws -> [Substring] {
        var fields: [Substring] = []
        var index = line.startIndex
        while true {
            while index < line.endIndex, line[index] == " " { index = line.index(after: index) }
            if index < line.endIndex, line[index] == "\"" {
                var value = ""
                var cursor = line.index(after: index)
                var closed = false
                while cursor < line.endIndex {
                    if line[cursor] == "\"" {
                        let next = line.index(after: cursor)
                        if next < line.endIndex, line[next] == "\"" {
                            value.append("\"")
                            cursor = line.index(after: next)
                            continue
                        }
                        closed = true
                        cursor = next
                        break
                    }
                    value.append(line[cursor])
                    cursor = line.index(after: cursor)
                }
                guard closed else { throw Problem(file: file, line: number, reason: "a quoted field is not closed") }
                while cursor < line.endIndex, line[cursor] == " " { cursor = line.index(after: cursor) }
                fields.append(Substring(value))
                guard cursor < line.endIndex else { return fields }
                guard line[cursor] == "," else { throw Problem(file: file, line: number, reason: "text after a quoted field") }
                index = line.index(after: cursor)
            } else {
                let end = line[index...].firstIndex(of: ",") ?? line.endIndex
                var value = line[index..<end]
                while value.last == " " { value = value.dropLast() }
                fields.append(value)
                guard end < line.endIndex else { return fields }
                index = line.index(after: end)
            }
        }
    }
}
