import CommuteCore
import FoundationEssentials

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
        let briefing = try commute.routes.brief(group: invocation.arguments.value("--group"))
        if invocation.wantsJSON {
            try invocation.printJSON(BriefJSON(briefing.brief, calendar: commute.calendar))
            return
        }
        invocation.io.out(briefing.brief.sentence)
        // Each source's staleness on its own line: a fresh one never hides another's age.
        let several = briefing.sources.count > 1
        for source in briefing.sources {
            if let staleness = source.staleness { invocation.io.out(describe(staleness, commute, source: several ? source.source : nil)) }
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
