import Basics
import Dispatch
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

    /// Work shared from inside shared work, and from several threads at once, is all done: a
    /// caller waits for its indices, never for a helper busy with another caller's.
    @Test func sharedWorkInsideSharedWorkAndFromManyThreadsIsAllDone() throws {
        let seen = Seen()
        concurrently(6, meanwhile: {}) { outer in
            concurrently(5, meanwhile: {}) { inner in seen.counts.withLock { $0[outer * 10 + inner, default: 0] += 1 } }
        }
        #expect(seen.counts.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<6).flatMap { outer in (0..<5).map { (outer * 10 + $0, 1) } }))
        let together = Seen()
        DispatchQueue.concurrentPerform(iterations: 8) { caller in
            concurrently(20, meanwhile: {}) { index in together.counts.withLock { $0[caller * 100 + index, default: 0] += 1 } }
        }
        #expect(together.counts.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<8).flatMap { caller in (0..<20).map { (caller * 100 + $0, 1) } }))
    }
}
