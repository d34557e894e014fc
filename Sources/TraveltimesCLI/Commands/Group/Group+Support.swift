import CommuteCore
import FoundationEssentials

extension Commands {
    /// The routes `--route` names (each may hold several, comma-separated), or nil when none were given.
    static func routes(_ option: Option<[RouteID]>, _ invocation: Invocation) throws -> [RouteID]? {
        let values = try invocation.values(option)
        return values.isEmpty ? nil : values.flatMap { $0 }
    }
}
