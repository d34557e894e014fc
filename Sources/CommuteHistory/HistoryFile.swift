import Basics
import CPrefetch
@_spi(Store) import CommuteStore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// One route's readings, `history/<route>.tth`: a 16-byte header, then 12-byte records
/// (`HistoryRecord`) in the order of their times, only ever appended to.
///
/// Appending is one `pwrite` after the last whole record, under the history lock: a process killed
/// while writing leaves at most a partial record at the end, which readers ignore and the next
/// append writes over — never a lost earlier record. The file never shrinks in place (retention
/// replaces it whole, by rename), so a reader's mapping stays valid while others append.
package enum HistoryFile {
    /// `TTHIST`, a zero, and the format's version.
    static let magic: [UInt8] = Array("TTHIST".utf8) + [0, 1]
    static let headerSize = 16
    /// Far past a route's 400 days at a reading a minute (7 MB): what is larger is not a history file.
    static let maximumSize = 256 << 20

    static var header: [UInt8] { magic + [UInt8](repeating: 0, count: headerSize - magic.count) }

    /// A history file mapped for reading: its whole records, searched by time. Not changed once
    /// made (but for `soundCount` handing pages back, which reads them again when asked): shared
    /// by the readers of one process (`ReadingHistory.contents`).
    package final class Contents: @unchecked Sendable {
        private let file: MappedFile?
        /// Whole records; a partial one at the end (a killed writer's) is not counted.
        package let count: Int

        /// Nil when there is no file. A file without the header is refused with its path.
        init?(path: String) throws(StoreError) {
            guard let file = try MappedFile(path: path, maximumSize: HistoryFile.maximumSize) else { return nil }
            let size = file.bytes.count
            // A header cut short is a first append that was killed: an empty history.
            let sound = size >= HistoryFile.headerSize
                ? Array(file.bytes.prefix(HistoryFile.magic.count)) == HistoryFile.magic
                : Array(file.bytes) == Array(HistoryFile.header.prefix(size))
            guard sound else { throw .unreadable(path: path, reason: "wrong shape: it is not a traveltimes history file") }
            self.file = file
            count = max(0, size - HistoryFile.headerSize) / HistoryRecord.size
            ends = count > 0 ? (Self.time(file, 0), Self.time(file, count - 1)) : nil
        }

        /// The time fields of the first and last records, as written: where `firstIndex(near:)`
        /// starts from.
        private let ends: (first: Int, last: Int)?

        /// An empty history: no file yet.
        init() {
            file = nil
            count = 0
            ends = nil
        }

        private static func time(_ file: MappedFile, _ index: Int) -> Int {
            file.bytes.baseAddress.map { Int(Int64(bitPattern: HistoryRecord.time($0 + HistoryFile.headerSize + index * HistoryRecord.size))) } ?? 0
        }

        private func base(_ index: Int) -> UnsafePointer<UInt8>? {
            file?.bytes.baseAddress.map { $0 + HistoryFile.headerSize + index * HistoryRecord.size }
        }

        /// The record at `index`, or nil when it is damaged.
        func record(at index: Int) -> HistoryRecord? { base(index).flatMap(HistoryRecord.decode) }

        /// The time field at `index`, as written, checked or not.
        private func time(at index: Int) -> Int {
            base(index).map { Int(Int64(bitPattern: HistoryRecord.time($0))) } ?? 0
        }

        /// The first index whose time is at or after `seconds` (`count` when none is): records are
        /// in time order, so this is a binary search — a year of readings costs twenty reads.
        func firstIndex(atOrAfter seconds: Int) -> Int {
            var low = 0
            var high = count
            while low < high {
                let middle = low + (high - low) / 2
                if time(at: middle) < seconds { low = middle + 1 } else { high = middle }
            }
            return low
        }

        /// The same index as `firstIndex(atOrAfter:)`, found from where the time would be were the
        /// readings evenly spaced (or from `guess`, the caller's), then by doubling steps and
        /// halving: a few reads near the answer rather than twenty across the file (each a page the
        /// process maps in). For one reader looking up many moments of a long history.
        func firstIndex(near seconds: Int, from guess: Int? = nil) -> Int {
            guard count > 2, let (first, last) = ends, last > first else { return firstIndex(atOrAfter: seconds) }
            let guess = guess.map { min(max($0, 0), count - 1) } ?? {
                let fraction = (Double(seconds) - Double(first)) / (Double(last) - Double(first))
                return Int(min(max(fraction, 0), 1) * Double(count - 1))
            }()
            // Bracket the answer: `low` before it (or -1), `high` at or after it (or count).
            var (low, high) = (guess - 1, guess)
            var step = 1
            if time(at: guess) < seconds {
                (low, high) = (guess, guess + 1)
                while high < count, time(at: high) < seconds {
                    low = high
                    high = min(count, high + step)
                    step *= 2
                }
            } else {
                while low >= 0, time(at: low) >= seconds {
                    high = low
                    low = max(-1, low - step)
                    step *= 2
                }
            }
            // Halve between them.
            var (start, end) = (low + 1, high)
            while start < end {
                let middle = start + (end - start) / 2
                if time(at: middle) < seconds { start = middle + 1 } else { end = middle }
            }
            return start
        }

        /// Calls `body` with each record whose time is in `range`, in order; returns how many were
        /// damaged (failed their check, or out of order) and skipped. `nearby` finds the first by
        /// `firstIndex(near:)`.
        @discardableResult
        package func forEach(in range: Range<Int>, nearby: Bool = false, _ body: (HistoryRecord) -> Void) -> Int {
            var damaged = 0
            var previous = Int.min
            var index = nearby ? firstIndex(near: range.lowerBound) : firstIndex(atOrAfter: range.lowerBound)
            while index < count {
                defer { index += 1 }
                guard let record = record(at: index), record.at >= previous else {
                    damaged += 1
                    continue
                }
                guard record.at < range.upperBound else { break }
                previous = record.at
                body(record)
            }
            return damaged
        }

        /// Asks the processor to bring the records at `records` (those in the file) into its cache,
        /// and goes on without waiting: for a reader that knows where it will read next.
        package func prefetch(records: Range<Int>) {
            guard let start = base(0) else { return }
            let records = records.clamped(to: 0..<count)
            guard !records.isEmpty else { return }
            let end = start + records.upperBound * HistoryRecord.size
            var address = start + records.lowerBound * HistoryRecord.size
            while address < end {
                tt_prefetch(address)
                address += 64
            }
            tt_prefetch(end - 1)
        }

        /// The time and minutes of each sound reading (passing its check, in time order, not
        /// suspicious) whose time is in `range`, appended to `readings`: `forEach(in:nearby:)`
        /// without a record made for each, for `DepartureDays`, which reads a year of days. The
        /// search for the first starts at `searchingFrom` when given (`firstIndex(near:from:)`);
        /// returns where it was.
        @discardableResult @inline(__always)
        package func appendSoundReadings(in range: Range<Int>, to readings: inout [(at: Int, minutes: Int)], searchingFrom guess: Int? = nil) -> Int {
            guard let start = base(0) else { return 0 }
            let checks = HistoryRecord.Checks.standard
            var previous = Int.min
            var index = firstIndex(near: range.lowerBound, from: guess)
            let first = index
            while index < count {
                defer { index += 1 }
                guard let (at, minutes, packed) = HistoryRecord.fields(start + index * HistoryRecord.size, checks), at >= previous else { continue }
                guard at < range.upperBound else { break }
                previous = at
                if !HistoryRecord.isSuspicious(packed) { readings.append((at, minutes)) }
            }
            return first
        }

        /// The records that pass their check, counted in one pass that hands the pages it has
        /// read back behind it: a file of 200 MB of zeros holds none, not seventeen million.
        package var soundCount: Int {
            var sound = 0
            for index in 0..<count {
                if record(at: index) != nil { sound += 1 }
                if index % 8_192 == 8_191 { file?.release(before: HistoryFile.headerSize + index * HistoryRecord.size) }
            }
            return sound
        }

        /// Hands every page read so far back to the kernel (they are read again if asked for): a
        /// command that reads a year of many routes keeps what it took out, not their pages. Not
        /// to be called while another thread reads these contents.
        package func releasePages() {
            guard let file else { return }
            file.release(before: file.bytes.count)
        }

        /// Whether a record at exactly `seconds` is in the file.
        func contains(at seconds: Int) -> Bool {
            let index = firstIndex(atOrAfter: seconds)
            return index < count && time(at: index) == seconds
        }

        /// The last sound record, looking back past damaged ones (at most a few).
        package var last: HistoryRecord? {
            var index = count - 1
            while index >= 0, index >= count - 64 {
                if let record = record(at: index) { return record }
                index -= 1
            }
            return nil
        }

        /// The first sound record.
        var first: HistoryRecord? {
            for index in 0..<min(count, 64) { if let record = record(at: index) { return record } }
            return nil
        }
    }

    /// Appends `records` after the last whole record of the file at `path` (created with its
    /// header when absent). The caller holds the history lock.
    static func append(_ records: [HistoryRecord], to path: String) throws(StoreError) {
        guard !records.isEmpty else { return }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard descriptor >= 0 else { throw .io(path: path, reason: "cannot open: \(errnoText())") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .io(path: path, reason: "cannot read: \(errnoText())") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .unreadable(path: path, reason: "it is not a regular file") }
        let size = Int(status.st_size)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headerSize + records.count * HistoryRecord.size)
        let offset: Int
        if size < headerSize {
            // Empty, or a header a killed writer left partial: written afresh.
            bytes += header
            offset = 0
        } else {
            offset = headerSize + (size - headerSize) / HistoryRecord.size * HistoryRecord.size
        }
        for record in records { record.append(to: &bytes) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                pwrite(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written, off_t(offset + written))
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, reason: "cannot write: \(errnoText())")
            }
            written += result
        }
    }

    /// Replaces the file with its sound records from `seconds` on, merged in time order with
    /// `inserting` (sorted, none at a time the file holds): how retention drops old records and
    /// a late reading is put in its place. The caller holds the history lock.
    static func rewrite(_ contents: Contents, keepingFrom seconds: Int, inserting: [HistoryRecord] = [], to path: String) throws {
        try AtomicFile.write(to: path) { output in
            var bytes = header
            var previous = Int.min
            var pending = inserting[...]
            func put(_ record: HistoryRecord) throws {
                record.append(to: &bytes)
                if bytes.count >= 1 << 16 {
                    try output.write(bytes)
                    bytes.removeAll(keepingCapacity: true)
                }
            }
            for index in contents.firstIndex(atOrAfter: seconds)..<contents.count {
                guard let record = contents.record(at: index), record.at > previous else { continue }
                while let next = pending.first, next.at < record.at {
                    if next.at >= seconds { try put(next) }
                    pending.removeFirst()
                }
                previous = record.at
                try put(record)
            }
            for record in pending where record.at >= seconds { try put(record) }
            try output.write(bytes)
        }
    }
}
