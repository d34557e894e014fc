import FoundationEssentials

/// One GTFS file read as GTFS writes CSV: a header naming the columns (in any order; a UTF-8
/// byte-order mark before it is dropped), then one record a line, fields separated by commas,
/// quoted where they hold commas or quotes (`""` inside quotes is one quote), spaces around a
/// field removed. Columns not asked for are ignored; a column asked for but absent reads as empty.
///
/// Lines are split into fields on their bytes, and only the fields asked for become text: a large
/// agency's `stop_times.txt` has two million lines of nine fields, of which a reader wants four.
public struct GTFSTable {
    /// Why a line is not a record.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var reason: String
        public var description: String { "\(file), line \(line): \(reason)" }
    }

    /// Where one field lies in its line; `escaped` when it was quoted and holds `""`.
    struct Field {
        var start: Int
        var end: Int
        var escaped: Bool
    }

    /// The fields of one record, by the columns asked for. Valid only inside the reader's body.
    public struct Row {
        fileprivate let line: UnsafeBufferPointer<UInt8>
        fileprivate let fields: [Field]
        fileprivate let columns: [Int?]

        /// The field of the `index`th column asked for; empty when the file lacks the column or
        /// the record is short.
        public subscript(_ index: Int) -> Substring {
            guard let column = columns[index], column < fields.count else { return "" }
            return Substring(text(of: fields[column]))
        }
    }

    /// Streams `file` of `archive`: `body` gets each record, with the fields of `columns` (in that
    /// order) reachable by index. Stops early when `body` returns false.
    public static func read(
        _ file: String, in archive: ZipArchive, columns: [String], _ body: (Row) throws -> Bool
    ) throws {
        var header: [Int?]?
        var number = 0
        var fields: [Field] = []
        try archive.forEachLine(of: file) { bytes in
            number += 1
            var line = bytes
            if line.last == UInt8(ascii: "\r") { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
            guard let indices = header else {
                if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = UnsafeBufferPointer(rebasing: line.dropFirst(3)) }
                try split(line, into: &fields, file: file, line: number)
                let names = fields.map { Row(line: line, fields: fields, columns: [0]).text(of: $0) }
                header = columns.map { names.firstIndex(of: $0) }
                return true
            }
            if line.isEmpty { return true }
            try split(line, into: &fields, file: file, line: number)
            return try body(Row(line: line, fields: fields, columns: indices))
        }
    }

    /// Splits one line into `fields` (emptied first): unquoted and trimmed of spaces.
    static func split(_ line: UnsafeBufferPointer<UInt8>, into fields: inout [Field], file: String, line number: Int) throws {
        let space = UInt8(ascii: " "), quote = UInt8(ascii: "\""), comma = UInt8(ascii: ",")
        fields.removeAll(keepingCapacity: true)
        let count = line.count
        var index = 0
        while true {
            while index < count, line[index] == space { index += 1 }
            if index < count, line[index] == quote {
                let start = index + 1
                var cursor = start
                var escaped = false
                var closed = false
                while cursor < count {
                    if line[cursor] == quote {
                        if cursor + 1 < count, line[cursor + 1] == quote {
                            escaped = true
                            cursor += 2
                            continue
                        }
                        closed = true
                        break
                    }
                    cursor += 1
                }
                guard closed else { throw Problem(file: file, line: number, reason: "a quoted field is not closed") }
                fields.append(Field(start: start, end: cursor, escaped: escaped))
                cursor += 1
                while cursor < count, line[cursor] == space { cursor += 1 }
                guard cursor < count else { return }
                guard line[cursor] == comma else { throw Problem(file: file, line: number, reason: "text after a quoted field") }
                index = cursor + 1
            } else {
                var end = index
                while end < count, line[end] != comma { end += 1 }
                var last = end
                while last > index, line[last - 1] == space { last -= 1 }
                fields.append(Field(start: index, end: last, escaped: false))
                guard end < count else { return }
                index = end + 1
            }
        }
    }
}

extension GTFSTable.Row {
    fileprivate func text(of field: GTFSTable.Field) -> String {
        let text = String(decoding: UnsafeBufferPointer(rebasing: line[field.start..<field.end]), as: UTF8.self)
        return field.escaped ? text.replacing("\"\"", with: "\"") : text
    }
}
