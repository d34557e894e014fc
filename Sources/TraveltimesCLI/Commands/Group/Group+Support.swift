import CommuteCore
import FoundationEssentials

extension Commands {
    /// `--route` values, or nil when none were given.
    static func groupRoutes(_ invocation: Invocation) throws -> [String]? {
        let values = invocation.arguments.all("--route")
        guard !values.isEmpty else { return nil }
        return try values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { try ScheduleParsing.routeID(String($0)) }
    }
}
