import Basics
import Synchronization
import TestThreads
import Testing

/// `concurrently`: every index once, on threads of its own and the caller's, and the caller's own
/// work returned (or thrown) only when every index is done.
@Suite(.ownThreads) struct ConcurrentlyTests {
    final class Seen: Sendable {
        let counts = Mutex<[Int: Int]>([:])
    }

    @Test func everyIndexRunsOnceAndTheCallersWorkIsReturnedAfterThem() throws {
        for count in [0, 1, 2, 3, 57] {
            let seen = Seen()
            let answer = concurrently(count, meanwhile: { "names" }) { index in seen.counts.withLock { $0[index, default: 0] += 1 } }
            #expect(answer == "names")
            #expect(seen.counts.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<count).map { ($0, 1) }))
        }
    }

    struct Refused: Error {}

    @Test func aFailureOfTheCallersWorkWaitsForEveryIndex() throws {
        let seen = Seen()
        #expect(throws: Refused.self) {
            try concurrently(40, meanwhile: { () throws -> Int in throw Refused() }) { index in seen.counts.withLock { $0[index, default: 0] += 1 } }
        }
        #expect(seen.counts.withLock { $0.count } == 40)
    }
}
