import CommuteCore
import FoundationEssentials

/// Doctor's words for what follows a commute on its way: the trips followed after their leave
/// alerts, and the incident feed for the car routes.
extension Doctor {
    /// `requests  TomTom 2.2 requests per delivered alert over 7 days (…); this month ~190 of 77,500 at this pace`.
    static func requestWords(_ costs: [RequestCost]) -> (check: String, detail: String, fix: String?) {
        let over = costs.filter { $0.projected > $0.monthBudget }
        return ("requests", costs.map(\.summary).joined(separator: "; "), over.isEmpty ? nil
            : "at this pace \(over.map(\.provider.displayName).joined(separator: " and ")) runs out this month: fewer routes or alerts, or a larger budget")
    }

    static func followingWords(_ following: Alerts.Following) -> (check: String, detail: String, fix: String?) {
        ("following", following.summary, following.stopped.isEmpty ? nil : "raise the budget (`traveltimes config set budget.PROVIDER N`) if your plan allows more")
    }

    static func incidentWords(_ summary: Incidents.IncidentSummary, moment: (Date) -> String) -> (check: String, detail: String, fix: String?) {
        let routes = "\(summary.routes) car route\(summary.routes == 1 ? "" : "s") with a line"
        guard !summary.roads.isEmpty else {
            return ("incidents", routes + ", on no motorway the Autobahn API knows: nothing to ask", nil)
        }
        let asked = summary.checkedAt.map { "asked \(moment($0))" } ?? "never asked"
        let detail = "\(routes); the Autobahn API's warnings and closures on \(summary.roads.joined(separator: ", ")), \(asked)"
            + (summary.problems.isEmpty ? "" : "; the last ask failed: " + summary.problems.joined(separator: "; "))
        return ("incidents", detail, summary.problems.isEmpty ? (summary.checkedAt == nil ? "traveltimes refresh" : nil) : "the next refresh asks again")
    }
}
