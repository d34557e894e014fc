import CommuteModel
import CommuteSources
import FoundationEssentials
import Synchronization

/// The shared state of a refresh's fetches: the next route to ask about, each answer, the
/// providers that stopped (a rejected key, a spent budget), and the requests counted but not sent.
final class FetchState: Sendable {
    /// Guards all of it: the fetch threads, and the refresh that joins them, read and write it
    /// only inside.
    private let state: Mutex<State>

    private struct State {
        var work: [Int]
        var position = 0
        var stoppedProviders: [RouteProvider: CustomRoutes.CustomFetchFailure] = [:]
        var unsent: [RouteProvider: Int] = [:]
        var answers: [Int: Result<RoutingAPI.Measurement, CustomRoutes.CustomFetchFailure>] = [:]
        var firstError: (any Error)?
        /// A second answer, about the departure the first moved to (`AskPlan.converge`).
        var converged: [Int: (RoutingQuery, RoutingAPI.Measurement)] = [:]
    }

    init(work: [Int]) { state = Mutex(State(work: work)) }

    func next() -> Int? {
        state.withLock { state in
            guard state.firstError == nil, state.position < state.work.count else { return nil }
            defer { state.position += 1 }
            return state.work[state.position]
        }
    }

    func stopped(_ provider: RouteProvider) -> CustomRoutes.CustomFetchFailure? { state.withLock { $0.stoppedProviders[provider] } }

    func record(_ index: Int, _ result: Result<RoutingAPI.Measurement, CustomRoutes.CustomFetchFailure>, unsent provider: RouteProvider?) {
        state.withLock { state in
            state.answers[index] = result
            if let provider { state.unsent[provider, default: 0] += 1 }
            switch result {
            case .failure(let failure) where failure.isProviderWide:
                if case .keyRejected(let provider, _) = failure { state.stoppedProviders[provider] = failure }
                if case .budgetSpent(let provider, _) = failure { state.stoppedProviders[provider] = failure }
            default: break
            }
        }
    }

    func converged(_ index: Int, query: RoutingQuery, _ answer: RoutingAPI.Measurement) {
        state.withLock { $0.converged[index] = (query, answer) }
    }

    var convergedAnswers: [Int: (RoutingQuery, RoutingAPI.Measurement)] { state.withLock { $0.converged } }

    func fail(_ error: any Error) { state.withLock { if $0.firstError == nil { $0.firstError = error } } }

    var unsentRequests: [RouteProvider: Int] { state.withLock { $0.unsent } }
    /// Each route's answer, by its index.
    var results: [Int: Result<RoutingAPI.Measurement, CustomRoutes.CustomFetchFailure>] { state.withLock { $0.answers } }
    /// The first error no route could get past.
    var error: (any Error)? { state.withLock { $0.firstError } }
}
