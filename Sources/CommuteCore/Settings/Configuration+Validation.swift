import Basics
import CommuteDelivery
import CommuteModel
import CommuteSources
@_spi(Store) import CommuteStore
import FoundationEssentials

// What each store file may hold. A file that parses but holds an impossible value (an hour of 99,
// a negative count, a zone that does not exist) is refused when read — exit 65 with the path and
// the reason, the file untouched — instead of reaching arithmetic, an array index or a loop.

extension Configuration {
    public func validate() throws(DocumentProblem) {
        if let graceSeconds { try DocumentProblem.range(graceSeconds, 0...DueOccurrences.largestGrace, "graceSeconds") }
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
                try DocumentProblem.check(NotifierName.isValid(name), "\(field).name is not a name (letters, digits, - and _)")
                try DocumentProblem.check(names.insert(name.lowercased()).inserted, "\(field).name repeats another notifier's")
            }
        }
        for name in (providerKeys ?? [:]).keys {
            try DocumentProblem.check(RouteProvider(rawValue: name) != nil, "providerKeys has '\(DisplayText.line(name))', not a provider")
        }
        for (name, url) in providerURLs ?? [:] {
            try DocumentProblem.check(RouteProvider(rawValue: name)?.needsKey == true, "providerURLs has '\(DisplayText.line(name))', not a keyed provider")
            try DocumentProblem.check(RoutingAPI.baseURL(url) == url, "providerURLs.\(name) is not an http(s) URL")
        }
        for (name, budget) in budgets ?? [:] {
            try DocumentProblem.check(RouteProvider(rawValue: name) != nil, "budgets has '\(DisplayText.line(name))', not a provider")
            try DocumentProblem.range(budget, 0...Self.largestBudget, "budgets.\(name)")
        }
        if let leadMinutes { try DocumentProblem.range(leadMinutes, 0...Self.longestProviderInterval, "leadMinutes") }
        if let minIntervalMinutes { try DocumentProblem.range(minIntervalMinutes, 0...Self.longestProviderInterval, "minIntervalMinutes") }
        if let staleAfterMinutes { try DocumentProblem.range(staleAfterMinutes, 0...Self.longestStaleAfter, "staleAfterMinutes") }
        for name in healthNotify ?? [] {
            try DocumentProblem.check(NotifierName.isValid(name), "healthNotify has a name that is not a notifier name")
        }
        if let followThresholdMinutes { try DocumentProblem.range(followThresholdMinutes, 0...Self.longestFollowThreshold, "followThresholdMinutes") }
        if let alertLifetimeMinutes { try DocumentProblem.range(alertLifetimeMinutes, 1...Self.longestProviderInterval, "alertLifetimeMinutes") }
        if let historyDays { try DocumentProblem.range(historyDays, 0...Self.longestHistoryDays, "historyDays") }
        if let typicalWeeks { try DocumentProblem.range(typicalWeeks, 1...Self.longestTypicalWeeks, "typicalWeeks") }
        try DocumentProblem.check((transitFeeds ?? []).count <= Self.largestTransitFeedCount, "transitFeeds holds too many feeds")
        var feedNames = Set<String>()
        try DocumentProblem.check((calendars ?? []).count <= CalendarSource.largestCount, "calendars holds too many calendars")
        for (index, source) in (calendars ?? []).enumerated() {
            try source.validate(field: "calendars[\(index)]")
        }
        try DocumentProblem.check((exports ?? []).count <= ExportTarget.largestCount, "exports holds too many exports")
        var exportIDs = Set<String>()
        for (index, export) in (exports ?? []).enumerated() {
            try export.validate(field: "exports[\(index)]")
            try DocumentProblem.check(exportIDs.insert(export.id).inserted, "exports[\(index)].id repeats another export's")
        }
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
            try DocumentProblem.check(watch.routeID.isValid, "watches[\(index)].routeID is not a route ID")
            try DocumentProblem.range(watch.overMinutes, 1...ScheduleParsing.largestThreshold, "watches[\(index)].overMinutes")
            for name in watch.notify ?? [] {
                try DocumentProblem.check(NotifierName.isValid(name), "watches[\(index)].notify has a name that is not a notifier name")
            }
        }
    }
}
