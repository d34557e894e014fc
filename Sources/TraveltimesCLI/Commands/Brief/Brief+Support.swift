import CommuteCore
import FoundationEssentials


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
