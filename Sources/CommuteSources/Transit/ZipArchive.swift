import Basics
import CZlib
@_spi(Store) import CommuteStore
import FoundationEssentials

/// Why a zip archive, or an entry of it, cannot be read. The archive is never trusted: each size
/// and offset is checked against the file before it is used.
public struct ZipProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// A zip archive read in place: the central directory once, then any entry streamed a line at a
/// time through zlib's raw inflate (stored and deflated entries; data descriptors; ZIP64 is
/// refused with a message, as no GTFS feed needs a 4 GiB file). Nothing is written to disk, so an
/// entry named `../x` is simply not one of the names asked for.
public final class ZipArchive {
    public struct Entry: Sendable, Equatable {
        public var name: String
        /// 0 stored, 8 deflated.
        public var method: UInt16
        public var crc: UInt32
        public var compressedSize: Int
        public var size: Int
        var localHeaderOffset: Int
    }

    public let path: String
    /// The entries, in the central directory's order; a name given twice keeps its first entry.
    public private(set) var entries: [String: Entry] = [:]
    private let file: MappedFile

    /// The largest archive read: a large agency's is about 100 MB.
    public static let largestArchive = 1 << 30
    /// An entry inflating to more than this many times its compressed size is a zip bomb.
    public static let largestRatio = 200
    /// The longest line an entry may hold.
    public static let longestLine = 1 << 20

    public init(path: String) throws {
        self.path = path
        guard let file = try MappedFile(path: path, maximumSize: Self.largestArchive) else {
            throw ZipProblem("\(path): no such file")
        }
        self.file = file
        try readDirectory()
    }

    private var bytes: UnsafeBufferPointer<UInt8> { file.bytes }

    private func uint16(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
    private func uint32(_ offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
    }

    private func readDirectory() throws {
        let count = bytes.count
        guard count >= 22 else { throw ZipProblem("it is not a zip archive (\(count) bytes)") }
        // The end record: its signature, searched backwards over at most a 65,535-byte comment.
        var end = -1
        var offset = count - 22
        while offset >= max(0, count - 22 - 65_535) {
            if uint32(offset) == 0x0605_4B50 {
                end = offset
                break
            }
            offset -= 1
        }
        guard end >= 0 else { throw ZipProblem("it is not a zip archive: no end of central directory") }
        if end >= 20, uint32(end - 20) == 0x0706_4B50 {
            throw ZipProblem("it is a ZIP64 archive, which traveltimes does not read (no GTFS file needs 4 GiB)")
        }
        let total = uint16(end + 10)
        let directorySize = uint32(end + 12)
        let directoryOffset = uint32(end + 16)
        if total == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            throw ZipProblem("it is a ZIP64 archive, which traveltimes does not read (no GTFS file needs 4 GiB)")
        }
        guard directoryOffset + directorySize <= end else { throw ZipProblem("its central directory lies outside the file") }
        var cursor = directoryOffset
        // Where each entry's local header and data lie: no two may share a byte, as a zip bomb's
        // entries do to multiply one deflate stream.
        var spans: [(start: Int, end: Int, name: String)] = []
        for index in 0..<total {
            guard cursor + 46 <= end, uint32(cursor) == 0x0201_4B50 else {
                throw ZipProblem("central directory entry \(index + 1) is damaged")
            }
            let nameLength = uint16(cursor + 28)
            let extraLength = uint16(cursor + 30)
            let commentLength = uint16(cursor + 32)
            let next = cursor + 46 + nameLength + extraLength + commentLength
            guard next <= end else { throw ZipProblem("central directory entry \(index + 1) runs past the directory") }
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[(cursor + 46)..<(cursor + 46 + nameLength)]), as: UTF8.self)
            let entry = Entry(
                name: name, method: UInt16(uint16(cursor + 10)), crc: UInt32(uint32(cursor + 16)), compressedSize: uint32(cursor + 20),
                size: uint32(cursor + 24), localHeaderOffset: uint32(cursor + 42))
            let shown = DisplayText.line(String(name.prefix(80)))
            if entry.compressedSize == 0xFFFF_FFFF || entry.size == 0xFFFF_FFFF || entry.localHeaderOffset == 0xFFFF_FFFF
                || hasZip64Field(from: cursor + 46 + nameLength, length: extraLength)
            {
                throw ZipProblem("\(shown) is a ZIP64 entry, which traveltimes does not read (no GTFS file needs 4 GiB)")
            }
            let local = entry.localHeaderOffset
            guard local + 30 <= count, uint32(local) == 0x0403_4B50 else { throw ZipProblem("\(shown): its local header is damaged") }
            let localExtra = uint16(local + 28)
            if hasZip64Field(from: local + 30 + uint16(local + 26), length: localExtra) {
                throw ZipProblem("\(shown) is a ZIP64 entry, which traveltimes does not read (no GTFS file needs 4 GiB)")
            }
            let dataEnd = local + 30 + uint16(local + 26) + localExtra + entry.compressedSize
            guard dataEnd <= count else { throw ZipProblem("\(shown) runs past the end of the file") }
            spans.append((local, dataEnd, shown))
            if entries[name] == nil { entries[name] = entry }
            cursor = next
        }
        spans.sort { $0.start < $1.start }
        for (first, second) in zip(spans, spans.dropFirst()) where second.start < first.end {
            throw ZipProblem("\(first.name) and \(second.name) overlap in the archive (a zip bomb's trick): not read")
        }
    }

    /// Whether the extra fields at `offset` hold a ZIP64 one (header 0x0001). Fields that run past
    /// `length` end the search.
    private func hasZip64Field(from offset: Int, length: Int) -> Bool {
        var cursor = offset
        let end = min(offset + length, bytes.count)
        while cursor + 4 <= end {
            if uint16(cursor) == 0x0001 { return true }
            cursor += 4 + uint16(cursor + 2)
        }
        return false
    }

    /// Streams the entry `name` a line at a time (without its line break; a CR before it is kept
    /// for the reader to drop), stopping early when `body` returns false. The bytes are checked as
    /// they come: never more than the directory says, nor more than `largestRatio` times the
    /// compressed size, nor a line over `longestLine`; at the end, the size and the CRC-32 must be
    /// what the directory says.
    public func forEachLine(of name: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Bool) throws {
        guard let entry = entries[name] else { throw ZipProblem("it has no \(name)") }
        let where_ = "\(name) in the archive"
        let local = entry.localHeaderOffset
        guard local + 30 <= bytes.count, uint32(local) == 0x0403_4B50 else { throw ZipProblem("\(where_): its local header is damaged") }
        let dataStart = local + 30 + uint16(local + 26) + uint16(local + 28)
        guard dataStart + entry.compressedSize <= bytes.count else { throw ZipProblem("\(where_) runs past the end of the file") }
        guard entry.size <= max(entry.compressedSize, 1) * Self.largestRatio else {
            throw ZipProblem("\(where_) would inflate \(entry.compressedSize) bytes to \(entry.size): a zip bomb, not read")
        }
        let data = UnsafeBufferPointer(rebasing: bytes[dataStart..<(dataStart + entry.compressedSize)])
        var line: [UInt8] = []
        var produced = 0
        var crc: UInt32 = 0
        var stopped = false
        func take(_ chunk: UnsafeBufferPointer<UInt8>) throws {
            guard !stopped else { return }
            produced += chunk.count
            guard produced <= entry.size else { throw ZipProblem("\(where_) holds more than the \(entry.size) bytes it claims") }
            if let base = chunk.baseAddress { crc = tt_crc32(crc, base, chunk.count) }
            var start = 0
            for index in chunk.indices where chunk[index] == UInt8(ascii: "\n") {
                if line.isEmpty {
                    stopped = !(try body(UnsafeBufferPointer(rebasing: chunk[start..<index])))
                } else {
                    line.append(contentsOf: chunk[start..<index])
                    stopped = !(try line.withUnsafeBufferPointer { try body($0) })
                    line.removeAll(keepingCapacity: true)
                }
                start = index + 1
                if stopped { return }
            }
            line.append(contentsOf: chunk[start...])
            guard line.count <= Self.longestLine else { throw ZipProblem("\(where_) has a line over 1 MiB") }
        }
        switch entry.method {
        case 0:
            try take(data)
        case 8:
            try Inflater.inflate(data, where: where_) { chunk in
                try take(chunk)
                return !stopped
            }
        default:
            throw ZipProblem("\(where_) is compressed with method \(entry.method); only stored and deflated entries are read")
        }
        if stopped { return }
        guard produced == entry.size else { throw ZipProblem("\(where_) holds \(produced) bytes, not the \(entry.size) it claims") }
        guard crc == entry.crc else { throw ZipProblem("\(where_) is damaged: its CRC-32 does not match") }
        if !line.isEmpty { _ = try line.withUnsafeBufferPointer { try body($0) } }
    }
}

/// zlib's raw inflate over a whole buffer, handing out what it produces 64 KiB at a time.
enum Inflater {
    static func inflate(
        _ input: UnsafeBufferPointer<UInt8>, where place: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Bool
    ) throws {
        switch tt_zlib_load() {
        case 0: break
        case -1: throw ZipProblem("zlib (libz.so.1) cannot be loaded: install zlib1g")
        default: throw ZipProblem("the zlib found lacks inflate")
        }
        guard let stream = tt_inflate_new() else { throw ZipProblem("zlib could not start inflating") }
        defer { tt_inflate_free(stream) }
        var output = [UInt8](repeating: 0, count: 1 << 16)
        var offset = 0
        while true {
            var consumed = 0
            var produced = 0
            let result = output.withUnsafeMutableBufferPointer { out in
                tt_inflate(stream, input.baseAddress.map { $0 + offset }, input.count - offset, &consumed, out.baseAddress, out.count, &produced)
            }
            offset += consumed
            if result < 0 { throw ZipProblem("\(place) is not valid deflate data") }
            if produced > 0 {
                let keepGoing = try output.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<produced])) }
                if !keepGoing { return }
            }
            if result == 1 { return }
            // No input left and nothing made: the stream was cut short.
            if consumed == 0 && produced == 0 { throw ZipProblem("\(place) is cut short") }
        }
    }
}
