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
        guard text.count == 36 else { return nil }
        // Written straight into the UUID's bytes: no array for each of thousands.
        var value = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)).uuid
        let parsed = withUnsafeMutableBytes(of: &value) { bytes -> Bool in
            var index = 0
            var position = 0
            while position < 36 {
                if position == 8 || position == 13 || position == 18 || position == 23 {
                    guard text[position] == UInt8(ascii: "-") else { return false }
                    position += 1
                    continue
                }
                let high = hexNibble(text[position])
                let low = hexNibble(text[position + 1])
                guard high | low < 16 else { return false }
                bytes[index] = high << 4 | low
                index += 1
                position += 2
            }
            return true
        }
        return parsed ? UUID(uuid: value) : nil
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
