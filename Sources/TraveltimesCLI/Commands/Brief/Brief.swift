import CommuteCore
import FoundationEssentials

extension Commands {
    enum BriefCommand {
        static let command = Command(
            name: "brief",
            summary: "The commute in one sentence: best and worst route and what is delayed",
            options: [
                group,
                Options.json, Options.now,
            ]
        ) { invocation in
            let commute = try invocation.commute()
            let briefing = try commute.routes.brief(group: try invocation.value(Self.group))
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

        static let group = Option<String>("--group", value: "NAME", help: "Brief a group (default: all favorites)", values: .groupName)
    }
}
