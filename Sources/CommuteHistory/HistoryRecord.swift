import CommuteModel
import FoundationEssentials

/// Who measured a travel time.
/// One measured travel time, as the history keeps it: when the source measured it (its own time,
/// to the second), the minutes, who measured it, and whether it lay outside what the route can be.
public struct HistoryRecord: Sendable, Equatable {
    /// Seconds since 1970, the source's own time (the feed's `TimeUpdated`; for a provider, when it
    /// answered).
    public var at: Int
    public var minutes: Int
    public var source: ReadingSource
    /// Outside what the route can be: over 4× its usual 90th percentile, or faster than 130 km/h.
    public var outside: Bool
    /// Outside, and the reading before it was too: the road really is that bad.
    public var confirmed: Bool

    public init(at: Int, minutes: Int, source: ReadingSource, outside: Bool = false, confirmed: Bool = false) {
        self.at = at
        self.minutes = minutes
        self.source = source
        self.outside = outside
        self.confirmed = confirmed
    }

    /// Outside and not confirmed: recorded, shown marked, and used for nothing.
    public var suspicious: Bool { outside && !confirmed }

    public var date: Date { Date(timeIntervalSince1970: TimeInterval(at)) }

    // MARK: The file's form

    /// Twelve bytes, little-endian: the time (8, signed seconds), the minutes (2), the source in
    /// the low four bits and the flags in the high four (1), and a check byte (1) that a torn or
    /// overwritten record fails.
    public static let size = 12
    private static let outsideBit: UInt8 = 0x10
    private static let confirmedBit: UInt8 = 0x20
    private static let checkSeed: UInt8 = 0x5A

    /// The times a record may hold: the years 0000 to 9999, like every store file.
    static let representableSeconds: ClosedRange<Int> =
        Int(Route.representableDates.lowerBound.timeIntervalSince1970)...Int(Route.representableDates.upperBound.timeIntervalSince1970)

    /// Appends this record's twelve bytes to `bytes`.
    func append(to bytes: inout [UInt8]) {
        let start = bytes.count
        let time = UInt64(bitPattern: Int64(at))
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: time >> UInt64(shift))) }
        let minutes = UInt16(clamping: self.minutes)
        bytes.append(UInt8(truncatingIfNeeded: minutes))
        bytes.append(UInt8(truncatingIfNeeded: minutes >> 8))
        bytes.append(source.rawValue | (outside ? Self.outsideBit : 0) | (confirmed ? Self.confirmedBit : 0))
        var check = Self.checkSeed
        for byte in bytes[start...] { check ^= byte }
        bytes.append(check)
    }

    /// The record whose bytes start at `base`, or nil when they fail the check or hold what no
    /// record can (a time outside the years 0000–9999, minutes outside 1…1440, an unknown source
    /// or flag).
    static func decode(_ base: UnsafePointer<UInt8>) -> HistoryRecord? {
        guard let (at, minutes, packed) = fields(base, Checks.standard), let source = ReadingSource(rawValue: packed & 0x0F) else { return nil }
        return HistoryRecord(
            at: at, minutes: minutes, source: source, outside: packed & outsideBit != 0, confirmed: packed & confirmedBit != 0)
    }

    /// What a record must hold, read once by a reader of many (each `static let` is a lazy global,
    /// asked for again at every use).
    struct Checks {
        var seconds: ClosedRange<Int>
        var minutes: ClosedRange<Int>
        /// Bit n set for each source byte n that names a source.
        var sources: UInt16

        static let standard = Checks(
            seconds: representableSeconds, minutes: 1...Route.longestTravelMinutes,
            sources: ReadingSource.allCases.reduce(0) { $0 | 1 << UInt16($1.rawValue) })
    }

    /// The time, minutes and packed source and flags of the record at `base`, checked as `decode`
    /// checks it (the source by `checks.sources`); nil when it fails.
    @inline(__always)
    static func fields(_ base: UnsafePointer<UInt8>, _ checks: Checks) -> (at: Int, minutes: Int, packed: UInt8)? {
        // The check byte is the seed and the other eleven bytes XORed: the time's eight folded
        // as one word, then the rest.
        let word = time(base)
        var folded = word ^ word >> 32
        folded ^= folded >> 16
        folded ^= folded >> 8
        let check = checkSeed ^ UInt8(truncatingIfNeeded: folded) ^ base[8] ^ base[9] ^ base[10]
        guard check == base[size - 1] else { return nil }
        let at = Int(Int64(bitPattern: word))
        let minutes = Int(base[8]) | Int(base[9]) << 8
        let packed = base[10]
        guard checks.seconds.contains(at), checks.minutes.contains(minutes), packed & 0xC0 == 0, checks.sources & 1 << UInt16(packed & 0x0F) != 0
        else { return nil }
        return (at, minutes, packed)
    }

    /// Whether packed flags mark a reading suspicious (outside, not confirmed).
    @inline(__always)
    static func isSuspicious(_ packed: UInt8) -> Bool { packed & (outsideBit | confirmedBit) == outsideBit }

    /// The time field alone, checked or not: what a search through the file compares.
    static func time(_ base: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(as: UInt64.self))
    }
}
