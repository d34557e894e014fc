import Foundation
import Testing

/// Runs each test of a suite on threads of the tests' own, not on Swift's cooperative pool.
///
/// Most of these tests wait: on a command's child, a stand-in server, a lock held by another
/// process. Swift Testing calls a synchronous test on the cooperative pool, which has one thread
/// per core, so on a 2-core machine two waiting tests held the whole run while the processor sat
/// half idle. With `.ownThreads` on a suite, its tests run on `TestThreads.shared`, a few more
/// threads than cores, and a test that waits holds only its own.
public struct OwnThreads: SuiteTrait, TestTrait, TestScoping {
    public init() {}

    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> OwnThreads? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(TestThreads.shared) { try await function() }
    }
}

extension Trait where Self == OwnThreads {
    /// The suite's tests run on `TestThreads.shared`.
    public static var ownThreads: OwnThreads { OwnThreads() }
}

/// A fixed set of threads that run the jobs given them in order: a task executor whose threads
/// may block without starving the rest of the run.
public final class TestThreads: TaskExecutor, @unchecked Sendable {
    /// Four per core, at most 16: on 2 cores, enough that waiting tests keep the processor busy
    /// (the run takes about 115 s where the cooperative pool's two threads took 200 s), few enough
    /// that the tests' own timeouts (a held lock, a silent server) keep their margins.
    public static let shared = TestThreads(count: min(16, 4 * ProcessInfo.processInfo.activeProcessorCount))

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var next = 0

    private init(count: Int) {
        for index in 0..<count {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "test-thread-\(index)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while next == jobs.count { condition.wait() }
            let job = jobs[next]
            next += 1
            if next == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                next = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
