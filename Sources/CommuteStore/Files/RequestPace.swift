import FoundationEssentials

/// A public service's pace, kept across processes: at most one request per `minimumGap`, and at
/// most `perMinute` in any minute, for every traveltimes process of this store together (a cron
/// tick, a refresh, a `place add` in a shell). The times of the last requests are kept in a small
/// file, read and written under its own lock; a process that must wait does so holding the lock,
/// so the others queue behind it.
@_spi(Store)
public struct RequestPace: Sendable {
    public var path: String
    public var minimumGap: TimeInterval
    public var perMinute: Int

    public init(path: String, minimumGap: TimeInterval, perMinute: Int) {
        self.path = path
        self.minimumGap = minimumGap
        self.perMinute = max(1, perMinute)
    }

    /// Waits until a request may be sent and records it as sent; false (nothing recorded) when the
    /// wait would end after `latest`. `clock` is the wall clock (shared by processes), `sleep` waits.
    public func admit(latest: Date, clock: () -> Date, sleep: (TimeInterval) -> Void) throws -> Bool {
        try FileLock(name: "pace", path: path + ".lock", timeout: 30).withLock {
            var sent = Self.read(path)
            let now = clock()
            // A time in the future (a clock set back) would stall every request: it is dropped.
            sent = sent.filter { $0 <= now.timeIntervalSince1970 + 1 }
            var earliest = (sent.last.map { $0 + minimumGap } ?? 0)
            let lastMinute = sent.filter { $0 > now.timeIntervalSince1970 - 60 }
            if lastMinute.count >= perMinute, let oldest = lastMinute.suffix(perMinute).first { earliest = max(earliest, oldest + 60) }
            let wait = earliest - now.timeIntervalSince1970
            if wait > 0 {
                guard now.addingTimeInterval(wait) <= latest else { return false }
                sleep(wait)
            }
            sent.append(max(clock().timeIntervalSince1970, earliest))
            let kept = sent.suffix(perMinute)
            try AtomicFile.write(Data(kept.map { String(cFormat: "%.3f", $0) }.joined(separator: "\n").utf8), to: path)
            return true
        }
    }

    /// The times recorded, oldest first; a file that cannot be read is none (the pace then starts
    /// afresh: never a failure).
    static func read(_ path: String) -> [TimeInterval] {
        guard let data = FileManager.default.contents(atPath: path), data.count <= 65_536 else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { Double($0) }.filter(\.isFinite).sorted()
    }
}
