import FoundationEssentials

// What each store file may hold. A file that parses but holds an impossible value (an hour of 99,
// a negative count, a zone that does not exist) is refused when read — exit 65 with the path and
// the reason, the file untouched — instead of reaching arithmetic, an array index or a loop.

extension Favorites {
    public func validate() throws(DocumentProblem) {
        var seen = Set<String>()
        for (index, id) in routeIDs.enumerated() {
            try DocumentProblem.check(Route.isValidID(id), "routeIDs[\(index)] '\(id)' is not a route ID")
            try DocumentProblem.check(seen.insert(id).inserted, "routeIDs lists '\(id)' twice")
        }
        var names = Set<String>()
        for (index, group) in groups.enumerated() {
            try DocumentProblem.check(RouteGroup.isValidName(group.name), "groups[\(index)].name is not a group name")
            try DocumentProblem.check(names.insert(group.name.lowercased()).inserted, "groups[\(index)].name repeats another group's")
            try DocumentProblem.check(!group.routeIDs.isEmpty, "groups[\(index)].routeIDs is empty")
            for id in group.routeIDs {
                try DocumentProblem.check(Route.isValidID(id), "groups[\(index)].routeIDs has '\(id)', not a route ID")
            }
        }
    }
}

extension ScheduleBook {
    public func validate() throws(DocumentProblem) {
        var seen = Set<UUID>()
        for (index, schedule) in schedules.enumerated() {
            let field = "schedules[\(index)]"
            try DocumentProblem.check(seen.insert(schedule.id).inserted, "\(field).id repeats an earlier schedule's")
            try DocumentProblem.check(!schedule.routeIDs.isEmpty, "\(field).routeIDs is empty")
            for id in schedule.routeIDs {
                try DocumentProblem.check(Route.isValidID(id), "\(field).routeIDs has '\(id)', not a route ID")
            }
            try DocumentProblem.check(!schedule.days.isEmpty, "\(field).days is empty")
            try DocumentProblem.range(schedule.hour, 0...23, "\(field).hour")
            try DocumentProblem.range(schedule.minute, 0...59, "\(field).minute")
            if let threshold = schedule.onlyWhenDelayedBy {
                try DocumentProblem.range(threshold, 1...ScheduleParsing.largestThreshold, "\(field).onlyWhenDelayedBy")
            }
            if schedule.onlyWhenAboveUsual == true {
                try DocumentProblem.check(schedule.onlyWhenDelayedBy != nil, "\(field).onlyWhenAboveUsual has no onlyWhenDelayedBy to stand in")
            }
            for name in schedule.notify ?? [] {
                try DocumentProblem.check(Notifier.isName(name), "\(field).notify has '\(DisplayText.line(String(name.prefix(40))))', not a notifier name")
            }
            if case .arriveBy(let buffer, let headsUp) = schedule.timing {
                try DocumentProblem.range(buffer, 0...Schedule.Timing.largestBufferMinutes, "\(field).arriveBy.bufferMinutes")
                if let headsUp {
                    try DocumentProblem.range(headsUp, 1...Schedule.Timing.largestBufferMinutes, "\(field).arriveBy.headsUpMinutes")
                }
            }
        }
        var numbers = Set<Int>()
        for (index, pause) in (pauses ?? []).enumerated() {
            let field = "pauses[\(index)]"
            try DocumentProblem.range(pause.number, 1...Pause.largestNumber, "\(field).number")
            try DocumentProblem.check(numbers.insert(pause.number).inserted, "\(field).number repeats another pause's")
            try DocumentProblem.check(pause.from <= pause.until, "\(field) ends before it starts")
            try DocumentProblem.check(
                pause.until.dayNumber - pause.from.dayNumber < Pause.longestDays, "\(field) is longer than \(Pause.longestDays) days")
            if let reason = pause.reason {
                try DocumentProblem.check(reason.count <= Pause.longestReason && DisplayText.line(reason) == reason, "\(field).reason is not one short line")
            }
        }
    }
}

extension PendingBook {
    public func validate() throws(DocumentProblem) {
        try DocumentProblem.range(cap, 1...FanOut.largestCap, "cap")
        try DocumentProblem.range(requested, 0...Int(Int32.max), "requested")
        for (list, entries) in [("requests", requests), ("deferred", deferred)] {
            for (index, entry) in entries.enumerated() {
                let field = "\(list)[\(index)]"
                try DocumentProblem.range(entry.hour, 0...23, "\(field).hour")
                try DocumentProblem.range(entry.minute, 0...59, "\(field).minute")
                try DocumentProblem.date(entry.nextFire, "\(field).nextFire")
            }
        }
    }
}

extension Configuration {
    public func validate() throws(DocumentProblem) {
        if let graceSeconds { try DocumentProblem.range(graceSeconds, 0...Self.largestGrace, "graceSeconds") }
        if let standardDailyCap { try DocumentProblem.range(standardDailyCap, 1...Self.largestDailyCap, "standardDailyCap") }
        if let timeZone {
            try DocumentProblem.check(IANAZone(identifier: timeZone) != nil, "timeZone '\(timeZone)' is not a time zone")
        }
        var ids = Set<Int>()
        var names = Set<String>()
        for (index, notifier) in (notifiers ?? []).enumerated() {
            let field = "notifiers[\(index)]"
            try DocumentProblem.range(notifier.id, 1...Notifier.largestID, "\(field).id")
            try DocumentProblem.check(ids.insert(notifier.id).inserted, "\(field).id repeats another notifier's")
            switch notifier.kind {
            case .stdout: break
            case .exec(let program, _):
                try DocumentProblem.check(!program.isEmpty, "\(field) runs a program with no name")
            case .webhook(let url, _, let headers, let click):
                try DocumentProblem.check(WebhookNotifier.isWebhookURL(url), "\(field) has a webhook URL that is not http(s)")
                for header in headers ?? [] {
                    try DocumentProblem.check(WebhookNotifier.isHeader(header), "\(field) has a header that is not `Name: value`")
                }
                if let click { try DocumentProblem.check(WebhookNotifier.isWebhookURL(click), "\(field) has a click URL that is not http(s)") }
            case .channel(let url):
                do {
                    _ = try Channel(url: url)
                } catch {
                    throw DocumentProblem("impossible value: \(field) has a URL that is not a notifier: \(error.description)")
                }
            case .desktop: break
            }
            if let name = notifier.name {
                try DocumentProblem.check(Notifier.isName(name), "\(field).name is not a name (letters, digits, - and _)")
                try DocumentProblem.check(names.insert(name.lowercased()).inserted, "\(field).name repeats another notifier's")
            }
        }
        for name in (providerKeys ?? [:]).keys {
            try DocumentProblem.check(RouteProvider(rawValue: name) != nil, "providerKeys has '\(DisplayText.line(name))', not a provider")
        }
        for (name, budget) in budgets ?? [:] {
            try DocumentProblem.check(RouteProvider(rawValue: name) != nil, "budgets has '\(DisplayText.line(name))', not a provider")
            try DocumentProblem.range(budget, 0...Self.largestBudget, "budgets.\(name)")
        }
        if let leadMinutes { try DocumentProblem.range(leadMinutes, 0...Self.longestProviderInterval, "leadMinutes") }
        if let minIntervalMinutes { try DocumentProblem.range(minIntervalMinutes, 0...Self.longestProviderInterval, "minIntervalMinutes") }
        if let staleAfterMinutes { try DocumentProblem.range(staleAfterMinutes, 0...Self.longestStaleAfter, "staleAfterMinutes") }
        for name in healthNotify ?? [] {
            try DocumentProblem.check(Notifier.isName(name), "healthNotify has a name that is not a notifier name")
        }
        if let alertLifetimeMinutes { try DocumentProblem.range(alertLifetimeMinutes, 1...Self.longestProviderInterval, "alertLifetimeMinutes") }
        if let historyDays { try DocumentProblem.range(historyDays, 0...Self.longestHistoryDays, "historyDays") }
        if let typicalWeeks { try DocumentProblem.range(typicalWeeks, 1...Self.longestTypicalWeeks, "typicalWeeks") }
        try DocumentProblem.check((transitFeeds ?? []).count <= Self.largestTransitFeedCount, "transitFeeds holds too many feeds")
        var feedNames = Set<String>()
        for (index, feed) in (transitFeeds ?? []).enumerated() {
            let field = "transitFeeds[\(index)]"
            try DocumentProblem.check(TransitFeed.isValidName(feed.name), "\(field).name is not a feed name")
            try DocumentProblem.check(feedNames.insert(feed.name).inserted, "\(field).name repeats another feed's")
            for location in feed.locations {
                try DocumentProblem.check(TransitLocation(location.text) != nil, "\(field) has a \(location.kind) URL that is not a URL or a path")
            }
            for header in feed.headers ?? [] {
                try DocumentProblem.check(header.isValid, "\(field) has a header that is not `Name: value`")
            }
        }
        for (index, watch) in (watches ?? []).enumerated() {
            try DocumentProblem.check(Route.isValidID(watch.routeID), "watches[\(index)].routeID is not a route ID")
            try DocumentProblem.range(watch.overMinutes, 1...ScheduleParsing.largestThreshold, "watches[\(index)].overMinutes")
            for name in watch.notify ?? [] {
                try DocumentProblem.check(Notifier.isName(name), "watches[\(index)].notify has a name that is not a notifier name")
            }
        }
    }
}

extension DeliveryLedger {
    public func validate() throws(DocumentProblem) {
        for (index, entry) in entries.enumerated() {
            try DocumentProblem.range(entry.attempts, 0...1_000_000, "entries[\(index)].attempts")
            if let notifier = entry.notifier {
                try DocumentProblem.range(notifier, 0...Notifier.largestID, "entries[\(index)].notifier")
            }
            // Shown by `delivered` and read back to change a notification: one short line each.
            for (name, text) in [("key", entry.key), ("handle", entry.handle), ("claimant", entry.claimant)] {
                guard let text else { continue }
                try DocumentProblem.check(text.count <= 1_000 && DisplayText.line(text) == text, "entries[\(index)].\(name) is not one short line")
            }
        }
    }
}

extension RefreshLog {
    public func validate() throws(DocumentProblem) {
        try DocumentProblem.range(failuresSinceSuccess, 0...Int(Int32.max), "failuresSinceSuccess")
        if let day = providerRequests?.day {
            // A day that is no date would be taken for another day and the count reset: refused.
            let parts = day.split(separator: "-", omittingEmptySubsequences: false)
            let numbers = parts.compactMap { part in part.allSatisfy(\.isASCIIDigit) && !part.isEmpty ? Int(part) : nil }
            let isDate = day.utf8.count == 10 && numbers.count == 3
                && CivilDate(year: numbers[0], month: numbers[1], day: numbers[2]).isValid
            try DocumentProblem.check(isDate, "providerRequests.day is '\(DisplayText.line(String(day.prefix(40))))', not a date (YYYY-MM-DD)")
        }
        for (name, failure) in failingProviders ?? [:] {
            try DocumentProblem.check(RouteProvider(rawValue: name) != nil, "failingProviders has '\(DisplayText.line(name))', not a provider")
            try DocumentProblem.date(failure.since, "failingProviders.\(name).since")
        }
        for (name, count) in providerRequests?.counts ?? [:] {
            try DocumentProblem.check(RouteProvider(rawValue: name) != nil, "providerRequests has '\(DisplayText.line(name))', not a provider")
            try DocumentProblem.range(count, 0...Int(Int32.max), "providerRequests.counts.\(name)")
        }
    }
}

extension DocumentProblem {
    static func check(_ condition: Bool, _ reason: @autoclosure () -> String) throws(DocumentProblem) {
        guard condition else { throw DocumentProblem("impossible value: \(reason())") }
    }

    static func range(_ value: Int, _ range: ClosedRange<Int>, _ field: String) throws(DocumentProblem) {
        try check(range.contains(value), "\(field) is \(value), outside \(range.lowerBound)–\(range.upperBound)")
    }

    static func date(_ date: Date, _ field: String) throws(DocumentProblem) {
        try check(Route.representableDates.contains(date), "\(field) is outside the years 0000–9999")
    }
}
