import Basics
import CommuteModel
import CommuteSources
import FoundationEssentials

/// Transit feeds with a file that could not be fetched or read (said as warnings, what was there
/// kept): try again later.
public struct TransitFeedsFailed: Error, CustomStringConvertible {
    public var feeds: [String]
    public var isQuietRepeat: Bool

    public var description: String {
        "transit feed\(feeds.count == 1 ? "" : "s") \(feeds.joined(separator: ", ")) not fully refreshed (see the warnings); what was there is kept"
    }
}

/// Custom routes held back because their engine failed within the hour (it is not hammered):
/// nothing of theirs was refreshed, and the refresh says so.
public struct EnginesResting: Error, CustomStringConvertible {
    public var outcomes: [CustomRoutes.CustomRouteOutcome]
    public var failing: [String: RefreshLog.ProviderFailure]
    public var commute: Commute
    public var secrets: [String]

    public var description: String {
        let providers = Dictionary(grouping: outcomes, by: \.provider)
        let lines = providers.keys.sorted { $0.rawValue < $1.rawValue }.map { provider in
            let ids = (providers[provider] ?? []).map(\.routeID).joined(separator: ", ")
            let why = failing[provider.rawValue].map {
                " since \(TimeFormatting.moment($0.since, relativeTo: commute.now, calendar: commute.calendar)) (\($0.reason))"
            } ?? ""
            return "\(provider.displayName) has been failing\(why); asked again an hour after its last failure; kept as they were: \(ids)"
        }
        return FeedSource.redact(lines.joined(separator: "; "), secrets: secrets)
    }
}

/// Custom routes that could not be fetched: a line each (a provider-wide problem once, with the
/// routes it held back), the last the error itself.
public struct CustomRoutesFailed: Error, CustomStringConvertible {
    public var outcomes: [CustomRoutes.CustomRouteOutcome]
    public var secrets: [String]

    /// The last line: what the command ends with (the others are printed before it).
    public var description: String { lines.last ?? "custom routes failed" }

    public var lines: [String] {
        var lines: [String] = []
        var said = Set<String>()
        for outcome in outcomes {
            let reason = outcome.reason ?? "failed"
            guard outcome.failure?.isProviderWide == true else {
                lines.append("custom route \(outcome.routeID): \(reason)")
                continue
            }
            guard said.insert(reason).inserted else { continue }
            let ids = outcomes.filter { $0.reason == reason }.map(\.routeID)
            lines.append("\(reason); not refreshed: \(ids.joined(separator: ", "))")
        }
        return lines.map { FeedSource.redact($0, secrets: secrets) }
    }
}
