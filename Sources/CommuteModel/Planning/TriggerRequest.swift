import FoundationEssentials

/// One weekly repeating trigger: one weekday of one schedule.
public struct TriggerRequest: Sendable, Equatable {
    public var scheduleID: UUID
    public var weekday: Weekday
    public var hour: Int
    public var minute: Int
    /// The next instant the trigger fires, strictly after the *now* it was planned at (for an
    /// arrive-by schedule, the leave time, which may already have passed: a late plan).
    public var nextFire: Date
    /// For an arrive-by schedule, the arrival this leave time is for (`hour:minute` that day): the
    /// occurrence's identity in the ledger. Nil for a fixed time.
    public var arrival: Date?
    /// An arrive-by schedule's heads-up: the alert before the leave time.
    public var isHeadsUp: Bool
    /// A calendar event's: its `arrival` is its one occurrence, not a week's.
    public var isOnce: Bool

    public init(
        scheduleID: UUID, weekday: Weekday, hour: Int, minute: Int, nextFire: Date, arrival: Date? = nil, isHeadsUp: Bool = false,
        isOnce: Bool = false
    ) {
        self.isOnce = isOnce
        self.scheduleID = scheduleID
        self.weekday = weekday
        self.hour = hour
        self.minute = minute
        self.nextFire = nextFire
        self.arrival = arrival
        self.isHeadsUp = isHeadsUp
    }

    /// Which alert it plans.
    public var id: AlertID { .schedule(scheduleID, weekday, headsUp: isHeadsUp) }
}

extension UUID {
    /// `6f9619ff-8b86-d011-b42d-00cf4fc964ff`: the form every identifier and listing uses, written
    /// from the bytes (`uuidString.lowercased()` builds two strings per request).
    public var lowercasedString: String {
        Self.hexForm(of: self) { String(decoding: $0, as: UTF8.self) }
    }

    /// The 36 bytes of the lowercase form, handed to `body` without building a string.
    static func hexForm<T>(of id: UUID, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { buffer in
            withUnsafeBytes(of: id.uuid) { bytes in
                var position = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        buffer[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    buffer[position] = hexDigits[Int(byte >> 4)]
                    buffer[position + 1] = hexDigits[Int(byte & 15)]
                    position += 2
                }
            }
            return body(UnsafeBufferPointer(buffer))
        }
    }

    /// A UUID in its 36-character form, either case, from UTF-8 bytes; nil for anything else.
    /// (Foundation's `UUID(uuidString:)` parses with `sscanf`: a pending file holds 1,500.)
    package static func parse(_ text: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard text.count == 36, let base = text.baseAddress else { return nil }
        // The 32 digits into two words, no array or closure for each of thousands.
        var high: UInt64 = 0
        var low: UInt64 = 0
        var digits = 0
        for position in 0..<36 {
            let byte = base[position]
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let nibble = hexNibble(byte)
            guard nibble < 16 else { return nil }
            if digits < 16 { high = high << 4 | UInt64(nibble) } else { low = low << 4 | UInt64(nibble) }
            digits += 1
        }
        func byte(_ word: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * index)) }
        return UUID(uuid: (
            byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5), byte(high, 6), byte(high, 7),
            byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3), byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)))
    }

    /// A hex digit's value, either case; 16 or more for anything else.
    @inline(__always)
    private static func hexNibble(_ byte: UInt8) -> UInt8 {
        let digit = byte &- UInt8(ascii: "0")
        if digit < 10 { return digit }
        let letter = (byte | 0x20) &- UInt8(ascii: "a")
        return letter < 6 ? letter + 10 : 0xFF
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

/// A scheduled trigger with the content it will show, rendered when it was planned.
public struct PendingAlert: Sendable, Equatable {
    public var request: TriggerRequest
    public var content: AlertContent
    /// An arrive-by alert on a transit route: the bus it is planned on, and the one it replaced.
    public var memory: TransitMemory?

    public init(request: TriggerRequest, content: AlertContent, memory: TransitMemory? = nil) {
        self.request = request
        self.content = content
        self.memory = memory
    }
}

/// What an alert shows.
public struct AlertContent: Codable, Sendable, Equatable {
    public var title: String
    public var body: String
    /// When the oldest of its routes' data was measured: what its "Data is … old" line is about.
    public var dataAsOf: Date?

    public init(title: String, body: String, dataAsOf: Date? = nil) {
        self.title = title
        self.body = body
        self.dataAsOf = dataAsOf
    }
}
