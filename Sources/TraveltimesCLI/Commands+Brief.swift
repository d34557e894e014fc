import CommuteCore
import Foundation

extension Commands {
    static let brief = Command(
        name: "brief",
        summary: "The commute in one sentence: best and worst route and what is delayed",
        options: [
            OptionSpec(name: "--group", value: "NAME", help: "Brief a group (default: all favorites)", values: .groupName),
            Options.json, Options.now,
        ]
    ) { invocation in
        let commute = try invocation.commute()
        let favorites = try commute.store.favorites()
        let routeIDs: [String]
        if let name = invocation.arguments.value("--group") {
            guard let group = favorites.group(named: name) else { throw CommuteError.unknownGroup(name) }
            routeIDs = group.routeIDs
        } else {
            routeIDs = favorites.routeIDs
        }
        guard !routeIDs.isEmpty else {
            throw CommuteError.nothingToBrief
        }
        let cache = try commute.store.routes()
        guard !cache.routes.isEmpty else { throw CommuteError.noRouteData }
        let brief = CommuteBrief(
            routeIDs: routeIDs, routes: cache.byID,
            partOfDay: CommuteBrief.partOfDay(hour: commute.calendar.local(commute.now).hour))
        if invocation.wantsJSON {
            try invocation.printJSON(BriefJSON(brief, calendar: commute.calendar))
            return
        }
        invocation.io.out(brief.sentence)
        if let newest = cache.routes.map(\.updatedAt).max(), let warning = try staleness(newest: newest, commute) {
            invocation.io.out(warning)
        }
    }
}

/// `brief --json`.
struct BriefJSON: EveryKeyEncodable {
    var sentence: String
    var assessment: String
    var best: RouteJSON?
    var worst: RouteJSON?
    var delayed: [String]
    var noData: [String]
    var unavailable: [String]

    init(_ brief: CommuteBrief, calendar: ZonedCalendar) {
        sentence = brief.sentence
        assessment = brief.assessment.rawValue
        best = brief.best.map { RouteJSON($0, calendar: calendar) }
        worst = brief.worst.map { RouteJSON($0, calendar: calendar) }
        delayed = brief.delayed.map(\.id)
        noData = brief.noData.map(\.id)
        unavailable = brief.unavailable
    }
}
