import CommuteCore
import FoundationEssentials


/// `watch list --json`.
struct WatchJSON: Encodable {
    var routeID: RouteID
    var overMinutes: Int
    /// `--over auto`: overMinutes stands in where history is thin.
    var overUsual: Bool
    var isOver: Bool?

    private enum CodingKeys: String, CodingKey { case routeID, overMinutes, overUsual, isOver }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(routeID, forKey: .routeID)
        try container.encode(overMinutes, forKey: .overMinutes)
        try container.encode(overUsual, forKey: .overUsual)
        try container.encode(isOver, forKey: .isOver)
    }
}
