import Synchronization

/// A time zone of the IANA database, read from the system's compiled files (RFC 8536 TZif, under
/// `TZDIR` or `/usr/share/zoneinfo`): its UTC offset at any instant.
///
/// Foundation's `TimeZone` answers the same question through ICU, whose data alone is 34 MB of a
/// static binary; the system's files are the ones `date` and every C program read. Past the last
/// transition a file lists, its POSIX rule (the footer of version 2 and later files) goes on.
public struct IANAZone: Sendable, Hashable, CustomStringConvertible {
    /// The zone's name: `America/Los_Angeles`, `UTC`.
    public let identifier: String
    /// Shared, not copied: a zone is a name and a reference (events and plans hold thousands).
    private let box: RulesBox
    var rules: Rules { box.rules }

    private final class RulesBox: Sendable {
        let rules: Rules
        init(_ rules: Rules) { self.rules = rules }
        /// Read in place: a plan asks this thousands of times, and a copy of the rules each time
        /// would retain and release their arrays each time.
        func offset(at instant: Int) -> Int { rules.offset(at: instant) }
    }

    /// The zone of that name, or nil when it is not a name or the system has no file for it.
    /// Files are read once per process.
    public init?(identifier: String) {
        guard let box = Self.rules(named: identifier) else { return nil }
        self.identifier = identifier
        self.box = box
    }

    public var description: String { identifier }

    public static func == (lhs: IANAZone, rhs: IANAZone) -> Bool { lhs.identifier == rhs.identifier }
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }

    /// UTC, which needs no file.
    public static let utc = IANAZone(identifier: "UTC", rules: Rules(transitions: [], offsets: [], initial: 0, footer: .fixed(0)))

    private init(identifier: String, rules: Rules) {
        self.identifier = identifier
        box = RulesBox(rules)
    }

    /// The UTC offset in seconds at an instant (seconds since 1970).
    public func offset(at instant: Int) -> Int { box.offset(at: instant) }


    public func secondsFromGMT(for date: Date) -> Int {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite else { return box.rules.initial }
        return offset(at: Int(max(-1e15, min(1e15, seconds)).rounded(.down)))
    }

    /// The system's zone: `/etc/localtime`'s link into the database, else `/etc/timezone`'s name,
    /// else UTC.
    public static var system: IANAZone {
        if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"),
            let range = link.firstRange(of: "zoneinfo/"),
            let zone = IANAZone(identifier: String(link[range.upperBound...]))
        {
            return zone
        }
        if let data = FileManager.default.contents(atPath: "/etc/timezone"),
            let zone = IANAZone(identifier: String(decoding: data.prefix(256), as: UTF8.self).trimmingWhitespace())
        {
            return zone
        }
        return .utc
    }

    // MARK: - Reading the database

    private static let cache = Mutex<[String: RulesBox?]>([:])

    private static func rules(named name: String) -> RulesBox? {
        if let known = cache.withLock({ $0[name] }) { return known }
        let read = readRules(named: name).map(RulesBox.init)
        cache.withLock { $0[name] = read }
        return read
    }

    private static func readRules(named name: String) -> Rules? {
        // A name is a relative path of plain parts: never `..`, never absolute, nothing odd.
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, name.utf8.count <= 255,
            parts.allSatisfy({ part in
                !part.isEmpty && part != "." && part != ".."
                    && part.utf8.allSatisfy { $0 < 0x80 && (Character(Unicode.Scalar($0)).isLetter || Character(Unicode.Scalar($0)).isNumber || "_-+".utf8.contains($0)) }
            })
        else { return nil }
        let directories = [ProcessInfo.processInfo.environment[.zoneDirectory], "/usr/share/zoneinfo", "/usr/lib/zoneinfo"].compactMap { $0 }.filter { !$0.isEmpty }
        for directory in directories {
            let path = directory + "/" + name
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                let data = FileManager.default.contents(atPath: path), data.count <= 1 << 20
            else { continue }
            return TZif.parse(Array(data))
        }
        // With no database installed, UTC still is.
        return ["UTC", "Etc/UTC", "GMT", "Etc/GMT", "Zulu", "Etc/Zulu", "Universal", "Etc/Universal"].contains(name) ? IANAZone.utc.rules : nil
    }

    /// The ISO 3166 code of the country the zone is in, by the tz database's `zone.tab`
    /// (`America/Los_Angeles` → `US`); nil for a zone of no country (UTC) or without the table.
    public var countryCode: String? { Self.countryCode(of: identifier) }

    static func countryCode(of name: String) -> String? {
        let directories = [ProcessInfo.processInfo.environment[.zoneDirectory], "/usr/share/zoneinfo", "/usr/lib/zoneinfo"].compactMap { $0 }.filter { !$0.isEmpty }
        for directory in directories {
            let path = directory + "/zone.tab"
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                let data = FileManager.default.contents(atPath: path), data.count <= 1 << 20
            else { continue }
            // `US\t+340308-1181434\tAmerica/Los_Angeles\tPacific`: code, place, zone, comment.
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                if fields.count >= 3, fields[2] == name, fields[0].count == 2 { return String(fields[0]) }
            }
            return nil
        }
        return nil
    }

    // MARK: - Rules

    /// A zone's offsets: a table of transitions, and a rule for what comes after them.
    struct Rules: Sendable, Hashable {
        /// Instants at which the offset changes, ascending.
        var transitions: [Int]
        /// The offset from each transition on.
        var offsets: [Int]
        /// The offset before the first transition.
        var initial: Int
        var footer: PosixRule?

        func offset(at instant: Int) -> Int {
            guard let first = transitions.first, instant >= first else {
                return transitions.isEmpty ? footer?.offset(at: instant) ?? initial : initial
            }
            if let last = transitions.last, instant >= last, let footer { return footer.offset(at: instant) }
            return offsets[lastTransition(atOrBefore: instant)]
        }
    }

    /// A POSIX `TZ` rule (`EST5EDT,M3.2.0,M11.1.0`): a standard offset, and perhaps a daylight one
    /// with the days it starts and ends each year.
    enum PosixRule: Sendable, Hashable {
        case fixed(Int)
        case yearly(standard: Int, daylight: Int, start: Moment, end: Moment)

        /// When in a year: a day, and a time of day (seconds, perhaps negative or past 24 hours).
        struct Moment: Sendable, Hashable {
            enum Day: Sendable, Hashable {
                /// `Jn`: day 1–365, February 29 never counted.
                case julianSkippingLeap(Int)
                /// `n`: day 0–365, February 29 counted.
                case julian(Int)
                /// `Mm.w.d`: weekday `d` (0 Sunday) of week `w` (5: the last) of month `m`.
                case month(Int, week: Int, weekday: Int)
            }

            var day: Day
            var time: Int

            /// The local day number (days since 1970-01-01) of this day in `year`.
            func dayNumber(in year: Int) -> Int {
                let january1 = CivilDate(year: year, month: 1, day: 1).dayNumber
                switch day {
                case .julianSkippingLeap(let n):
                    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
                    return january1 + n - 1 + (leap && n >= 60 ? 1 : 0)
                case .julian(let n):
                    return january1 + n
                case .month(let month, let week, let weekday):
                    let first = CivilDate(year: year, month: month, day: 1).dayNumber
                    let offset = (weekday - CivilDate.weekdayIndex(ofDayNumber: first) + 7) % 7
                    var day = first + offset + (week - 1) * 7
                    let next = month == 12 ? CivilDate(year: year + 1, month: 1, day: 1) : CivilDate(year: year, month: month + 1, day: 1)
                    let nextMonth = next.dayNumber
                    while day >= nextMonth { day -= 7 }
                    return day
                }
            }
        }

        func offset(at instant: Int) -> Int {
            switch self {
            case .fixed(let offset):
                return offset
            case .yearly(let standard, let daylight, let start, let end):
                let year = CivilDate(dayNumber: (instant + standard).floorDivided(by: 86_400)).year
                // Start is written in standard time, end in daylight time.
                let begins = start.dayNumber(in: year) * 86_400 + start.time - standard
                let ends = end.dayNumber(in: year) * 86_400 + end.time - daylight
                let inDaylight = begins < ends ? (instant >= begins && instant < ends) : !(instant >= ends && instant < begins)
                return inDaylight ? daylight : standard
            }
        }

        /// Parses a rule; nil when it is not one. An empty rule has nothing to say (nil too).
        static func parse(_ text: String) -> PosixRule? {
            var input = Array(text.utf8)[...]
            guard skipName(&input), let standardWest = offset(&input) else { return nil }
            let standard = -standardWest
            guard !input.isEmpty else { return .fixed(standard) }
            guard skipName(&input) else { return nil }
            var daylight = standard + 3_600
            if let first = input.first, first != UInt8(ascii: ",") {
                guard let west = offset(&input) else { return nil }
                daylight = -west
            }
            var start = Moment(day: .month(3, week: 2, weekday: 0), time: 7_200)
            var end = Moment(day: .month(11, week: 1, weekday: 0), time: 7_200)
            if input.first == UInt8(ascii: ",") {
                input.removeFirst()
                guard let parsedStart = moment(&input), input.first == UInt8(ascii: ",") else { return nil }
                input.removeFirst()
                guard let parsedEnd = moment(&input) else { return nil }
                start = parsedStart
                end = parsedEnd
            }
            guard input.isEmpty else { return nil }
            // `EST5EDT,0/0,J365/25`: daylight all year.
            if case .julian(0) = start.day, start.time == 0, case .julianSkippingLeap(365) = end.day, end.time == 25 * 3_600 + standard - daylight {
                return .fixed(daylight)
            }
            return .yearly(standard: standard, daylight: daylight, start: start, end: end)
        }

        private static func skipName(_ input: inout ArraySlice<UInt8>) -> Bool {
            if input.first == UInt8(ascii: "<") {
                guard let close = input.firstIndex(of: UInt8(ascii: ">")), close - input.startIndex >= 4 else { return false }
                input = input[(close + 1)...]
                return true
            }
            let letters = input.prefix { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0 & ~0x20) }
            guard letters.count >= 3 else { return false }
            input = input.dropFirst(letters.count)
            return true
        }

        /// `[+-]hh[:mm[:ss]]` in seconds.
        private static func offset(_ input: inout ArraySlice<UInt8>) -> Int? {
            var sign = 1
            if input.first == UInt8(ascii: "+") || input.first == UInt8(ascii: "-") {
                sign = input.removeFirst() == UInt8(ascii: "-") ? -1 : 1
            }
            guard let seconds = clock(&input, maximumHours: 24) else { return nil }
            return sign * seconds
        }

        private static func clock(_ input: inout ArraySlice<UInt8>, maximumHours: Int) -> Int? {
            guard let hours = number(&input, digits: 3), hours <= maximumHours else { return nil }
            var seconds = hours * 3_600
            for scale in [60, 1] {
                guard input.first == UInt8(ascii: ":") else { break }
                input.removeFirst()
                guard let part = number(&input, digits: 2), part < 60 else { return nil }
                seconds += part * scale
            }
            return seconds
        }

        private static func number(_ input: inout ArraySlice<UInt8>, digits: Int) -> Int? {
            let run = input.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            guard !run.isEmpty, run.count <= digits else { return nil }
            input = input.dropFirst(run.count)
            return run.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }

        private static func moment(_ input: inout ArraySlice<UInt8>) -> Moment? {
            let day: Moment.Day
            switch input.first {
            case UInt8(ascii: "J"):
                input.removeFirst()
                guard let n = number(&input, digits: 3), (1...365).contains(n) else { return nil }
                day = .julianSkippingLeap(n)
            case UInt8(ascii: "M"):
                input.removeFirst()
                guard let month = number(&input, digits: 2), (1...12).contains(month), input.first == UInt8(ascii: ".") else { return nil }
                input.removeFirst()
                guard let week = number(&input, digits: 1), (1...5).contains(week), input.first == UInt8(ascii: ".") else { return nil }
                input.removeFirst()
                guard let weekday = number(&input, digits: 1), weekday <= 6 else { return nil }
                day = .month(month, week: week, weekday: weekday)
            default:
                guard let n = number(&input, digits: 3), n <= 365 else { return nil }
                day = .julian(n)
            }
            var time = 7_200
            if input.first == UInt8(ascii: "/") {
                input.removeFirst()
                var sign = 1
                if input.first == UInt8(ascii: "+") || input.first == UInt8(ascii: "-") {
                    sign = input.removeFirst() == UInt8(ascii: "-") ? -1 : 1
                }
                guard let seconds = clock(&input, maximumHours: 167) else { return nil }
                time = sign * seconds
            }
            return Moment(day: day, time: time)
        }
    }

    /// RFC 8536's format: a version 1 block of 32-bit times, and (version 2 and later) a block of
    /// 64-bit ones and a POSIX rule for the years after.
    enum TZif {
        static func parse(_ bytes: [UInt8]) -> Rules? {
            var cursor = 0
            guard let first = header(bytes, at: &cursor) else { return nil }
            guard first.version >= 2 else { return block(bytes, at: &cursor, header: first, timeSize: 4) }
            // Skip the version 1 block to the 64-bit one.
            cursor += first.blockSize(timeSize: 4)
            guard let second = header(bytes, at: &cursor), var rules = block(bytes, at: &cursor, header: second, timeSize: 8) else { return nil }
            cursor += second.blockSize(timeSize: 8)
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\n"),
                let close = bytes[(cursor + 1)...].firstIndex(of: UInt8(ascii: "\n")), close > cursor + 1
            {
                rules.footer = PosixRule.parse(String(decoding: bytes[(cursor + 1)..<close], as: UTF8.self))
            }
            return rules
        }

        struct Header {
            var version: Int
            var isUTCCount, isStandardCount, leapCount, transitionCount, typeCount, characterCount: Int

            func blockSize(timeSize: Int) -> Int {
                transitionCount * (timeSize + 1) + typeCount * 6 + characterCount + leapCount * (timeSize + 4) + isStandardCount + isUTCCount
            }
        }

        private static func header(_ bytes: [UInt8], at cursor: inout Int) -> Header? {
            guard bytes.count >= cursor + 44, Array(bytes[cursor..<cursor + 4]) == Array("TZif".utf8) else { return nil }
            let version = bytes[cursor + 4] == 0 ? 1 : Int(bytes[cursor + 4]) - Int(UInt8(ascii: "0"))
            var counts: [Int] = []
            for index in 0..<6 { counts.append(Int(integer(bytes, at: cursor + 20 + index * 4, size: 4))) }
            cursor += 44
            let header = Header(
                version: version, isUTCCount: counts[0], isStandardCount: counts[1], leapCount: counts[2], transitionCount: counts[3],
                typeCount: counts[4], characterCount: counts[5])
            // Bounded by the file, which is at most a megabyte.
            guard counts.allSatisfy({ $0 >= 0 && $0 <= 1 << 20 }), header.typeCount >= 1, cursor + header.blockSize(timeSize: version >= 2 ? 4 : 4) <= bytes.count
            else { return nil }
            return header
        }

        private static func block(_ bytes: [UInt8], at start: inout Int, header: Header, timeSize: Int) -> Rules? {
            guard start + header.blockSize(timeSize: timeSize) <= bytes.count else { return nil }
            var cursor = start
            var transitions: [Int] = []
            transitions.reserveCapacity(header.transitionCount)
            for index in 0..<header.transitionCount { transitions.append(Int(integer(bytes, at: cursor + index * timeSize, size: timeSize))) }
            cursor += header.transitionCount * timeSize
            let indices = bytes[cursor..<cursor + header.transitionCount].map(Int.init)
            cursor += header.transitionCount
            var typeOffsets: [Int] = []
            for index in 0..<header.typeCount {
                let offset = Int(integer(bytes, at: cursor + index * 6, size: 4))
                guard abs(offset) < 26 * 3_600 else { return nil }
                typeOffsets.append(offset)
            }
            guard indices.allSatisfy({ $0 < typeOffsets.count }), zip(transitions, transitions.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
            return Rules(transitions: transitions, offsets: indices.map { typeOffsets[$0] }, initial: typeOffsets[0], footer: nil)
        }

        /// A big-endian two's-complement integer of `size` bytes.
        private static func integer(_ bytes: [UInt8], at offset: Int, size: Int) -> Int64 {
            var value: UInt64 = 0
            for index in 0..<size { value = value << 8 | UInt64(bytes[offset + index]) }
            let shift = UInt64(64 - size * 8)
            return Int64(bitPattern: value << shift) >> Int64(shift)
        }
    }
}
