import Basics
import CommuteModel
@_spi(Store) import CommuteStore
import FoundationEssentials

// What each store file may hold. A file that parses but holds an impossible value (an hour of 99,
// a negative count, a zone that does not exist) is refused when read — exit 65 with the path and
// the reason, the file untouched — instead of reaching arithmetic, an array index or a loop.

extension RefreshLog {
    public func validate() throws(DocumentProblem) {
        try DocumentProblem.range(failuresSinceSuccess, 0...Int(Int32.max), "failuresSinceSuccess")
        // A day that is no date would be taken for another day and the count reset: refused.
        for (field, counts) in [("providerRequests", providerRequests)] + (earlierRequests ?? []).map({ ("earlierRequests", Optional($0)) }) {
            guard let counts else { continue }
            let day = counts.day
            let parts = day.split(separator: "-", omittingEmptySubsequences: false)
            let numbers = parts.compactMap { part in part.allSatisfy(\.isASCIIDigit) && !part.isEmpty ? Int(part) : nil }
            let isDate = day.utf8.count == 10 && numbers.count == 3
                && CivilDate(year: numbers[0], month: numbers[1], day: numbers[2]).isValid
            try DocumentProblem.check(isDate, "\(field).day is '\(DisplayText.line(String(day.prefix(40))))', not a date (YYYY-MM-DD)")
            for (name, count) in counts.counts {
                try DocumentProblem.check(RouteProvider(rawValue: name) != nil, "\(field) has '\(DisplayText.line(name))', not a provider")
                try DocumentProblem.range(count, 0...Int(Int32.max), "\(field).counts.\(name)")
            }
        }
        try DocumentProblem.check((earlierRequests?.count ?? 0) <= 400, "earlierRequests has \(earlierRequests?.count ?? 0) days, more than any refresh keeps")
        for (name, failure) in failingProviders ?? [:] {
            try DocumentProblem.check(RouteProvider(rawValue: name) != nil, "failingProviders has '\(DisplayText.line(name))', not a provider")
            try DocumentProblem.date(failure.since, "failingProviders.\(name).since")
        }
    }
}
