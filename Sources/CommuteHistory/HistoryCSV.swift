import Basics
import CommuteModel
@_spi(Store) import CommuteStore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// A CSV file of readings that could not be imported; nothing was recorded from it.
public struct HistoryImportError: Error, Equatable, Sendable, CustomStringConvertible {
    public var source: String
    /// The line at fault (1 is the first); 0 for the file as a whole.
    public var line: Int
    public var reason: String

    public var description: String {
        (line > 0 ? "\(source), line \(line): " : "\(source): ") + reason + "; nothing was imported"
    }
}

/// Readings as `history export --csv` writes them and `history import` reads them:
/// `route,at,minutes,source,suspicious`, one reading a line, `at` in ISO 8601 with its offset.
public enum HistoryCSV {
    public static let header = "route,at,minutes,source,suspicious"
    /// The longest line read: a reading is about 50 bytes.
    static let longestLine = 1_024
    /// The largest file read: ten years of ten routes at a reading a minute is less.
    static let largestFile = 4 << 30

    /// One reading's line, in `calendar`'s zone.
    public static func line(_ routeID: RouteID, _ record: HistoryRecord, calendar: ZonedCalendar) -> String {
        "\(routeID),\(TimeFormatting.iso8601(record.date, calendar: calendar)),\(record.minutes),\(record.source.name),\(record.suspicious)"
    }

    /// Calls `body` with each reading of the file at `path` (`-`: standard input), in file order,
    /// a piece of the file at a time; throws at the first line that is not a reading. A header
    /// line is skipped where it stands first. With `copy`, every byte read is handed to it too
    /// (standard input kept for a second pass).
    package static func forEachReading(
        path: String, copy: (([UInt8]) throws -> Void)? = nil, _ body: (RouteID, HistoryRecord) throws -> Void
    ) throws {
        let name = path == "-" ? "standard input" : path
        let descriptor: Int32
        if path == "-" {
            descriptor = STDIN_FILENO
        } else {
            guard let (opened, _) = try RegularFile.open(path, maximumSize: largestFile) else {
                throw HistoryImportError(source: name, line: 0, reason: "no such file")
            }
            descriptor = opened
        }
        defer { if path != "-" { close(descriptor) } }
        var number = 0
        var line: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        func take() throws {
            number += 1
            defer { line.removeAll(keepingCapacity: true) }
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            // A spreadsheet's byte-order mark before the first line is no part of it.
            if number == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
            if line.isEmpty || (number == 1 && line.elementsEqual(header.utf8)) { return }
            let (routeID, record) = try parse(line, problem: { HistoryImportError(source: name, line: number, reason: $0) })
            try body(routeID, record)
        }
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw HistoryImportError(source: name, line: 0, reason: "cannot read: \(errnoText())")
            }
            if count == 0 { break }
            total += count
            guard total <= largestFile else { throw HistoryImportError(source: name, line: 0, reason: "it is over 4 GiB") }
            if let copy { try copy(Array(buffer[0..<count])) }
            for byte in buffer[0..<count] {
                if byte == UInt8(ascii: "\n") {
                    try take()
                } else {
                    guard line.count < longestLine else {
                        throw HistoryImportError(source: name, line: number + 1, reason: "the line is over \(longestLine) bytes: not a reading")
                    }
                    line.append(byte)
                }
            }
        }
        if !line.isEmpty { try take() }
    }

    /// One line: five fields, each what a reading holds.
    private static func parse(
        _ line: [UInt8], problem: (String) -> HistoryImportError
    ) throws(HistoryImportError) -> (RouteID, HistoryRecord) {
        let fields = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        guard fields.count == 5 else { throw problem("expected 5 fields (\(header)), found \(fields.count)") }
        guard let routeID = RouteID(validating: fields[0]) else {
            throw problem("'\(DisplayText.line(String(fields[0].prefix(64))))' is not a route ID")
        }
        guard let at = ISO8601.parse(fields[1])?.instant, Route.representableDates.contains(at) else {
            throw problem("'\(DisplayText.line(String(fields[1].prefix(40))))' is not a time such as 2025-11-04T07:00:00-08:00")
        }
        guard fields[2].count <= 4, fields[2].allSatisfy(\.isASCIIDigit), let minutes = Int(fields[2]),
            (1...Route.longestTravelMinutes).contains(minutes)
        else { throw problem("'\(DisplayText.line(String(fields[2].prefix(20))))' is not a travel time in whole minutes, 1 to 1440") }
        guard let source = ReadingSource(name: fields[3]) else {
            throw problem("'\(DisplayText.line(String(fields[3].prefix(20))))' is not a source: use \(ReadingSource.allCases.map(\.name).spoken())")
        }
        guard let suspicious = ["true": true, "false": false][fields[4]] else {
            throw problem("'\(DisplayText.line(String(fields[4].prefix(20))))' is not true or false")
        }
        return (routeID, HistoryRecord(at: ZonedCalendar.seconds(at), minutes: minutes, source: source, outside: suspicious))
    }
}
