/// How a route compares with its usual time. Always shown as text, never by colour alone.
public enum DelayStatus: String, Codable, Sendable, CaseIterable {
    /// On time or faster: delay ≤ 0.
    case clear = "CLEAR"
    /// 1 to 5 minutes over the average.
    case slowing = "SLOWING"
    /// 6 or more minutes over the average.
    case congested = "CONGESTED"
    /// The current or the average time is missing.
    case noData = "NO DATA"
    /// A free-flow estimate (an open engine's, or a keyed route's fallback while its provider cannot
    /// answer): a time with no traffic in it, so no delay to speak of.
    case estimate = "ESTIMATE"

    /// The status for a delay in minutes, or `.noData` when there is no delay to speak of.
    public init(delayMinutes: Int?) {
        guard let delay = delayMinutes else {
            self = .noData
            return
        }
        switch delay {
        case ...0: self = .clear
        case 1...5: self = .slowing
        default: self = .congested
        }
    }

    /// Worst first: congested, slowing, clear, then an estimate or no data (no delay known).
    public var severity: Int {
        switch self {
        case .congested: 3
        case .slowing: 2
        case .clear: 1
        case .noData, .estimate: 0
        }
    }
}
