import CommuteCore
import FoundationEssentials


/// `brief --json`.
struct BriefJSON: EveryKeyEncodable {
    var sentence: String
    var assessment: String
    var best: RouteJSON?
    var worst: RouteJSON?
    var delayed: [RouteID]
    var noData: [RouteID]
    var unavailable: [RouteID]

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
