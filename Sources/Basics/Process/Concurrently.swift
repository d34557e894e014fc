import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Runs `body(index)` for every index below `count` on the machine's cores — the process's helper
/// threads (`Helpers`) and the calling thread, which first runs `meanwhile` — and returns
/// `meanwhile`'s result when every index is done. For work measured in milliseconds, where
/// libdispatch's first worker thread (half a millisecond in coming) would be most of the gain.
public func concurrently<T>(_ count: Int, meanwhile: () throws -> T, _ body: @escaping @Sendable (Int) -> Void) rethrows -> T {
    let work = SharedWork(count: count, body: body)
    Helpers.shared.offer(min(Helpers.shared.count, count - 1), work.run)
    defer {
        work.run()
        work.waitUntilDone()
    }
    return try meanwhile()
}

/// The threads `concurrently` shares its work with: one for each core but the caller's, started
/// once in a process and then waiting for work. `Helpers.start()` starts them before their work
/// is known. A new thread's first run can be slow in coming: on a virtual machine of two cores
/// whose second had been idle, 0.6 to 5 ms from `pthread_create`, where waking a thread that
/// already ran and now waits took 0.015 to 0.1 ms. A command that will share out work starts
/// them first, and they wait while it reads what the work is.
public enum Helpers {
    /// Starts the helper threads now, if not started already.
    public static func start() { _ = shared }

    /// At most seven: the work shared is tens of routes, and each thread is started one by one.
    fileprivate static let shared = Pool(threads: min(7, max(0, sysconf(Int32(_SC_NPROCESSORS_ONLN)) - 1)))

    fileprivate final class Pool: Sendable {
        let count: Int
        /// Work offered and not yet taken, each piece taken by one helper.
        private let offered = Mutex<[@Sendable () -> Void]>([])
        private let waiting = DispatchSemaphore(value: 0)

        init(threads: Int) {
            count = threads
            for _ in 0..<threads {
                startThread { [self] in
                    while true {
                        waiting.wait()
                        offered.withLock { $0.isEmpty ? nil : $0.removeFirst() }?()
                    }
                }
            }
        }

        /// Offers `job` to `helpers` of the threads: each that is free runs it once.
        func offer(_ helpers: Int, _ job: @escaping @Sendable () -> Void) {
            guard helpers > 0 else { return }
            offered.withLock { $0.append(contentsOf: repeatElement(job, count: helpers)) }
            for _ in 0..<helpers { waiting.signal() }
        }
    }
}

/// The indices of one `concurrently`, taken one at a time by whichever thread is free, and a
/// signal when the last is done. The caller waits for the indices, not for the helpers: a helper
/// that comes to the work when every index is taken has nothing to do and is not waited for (a
/// body that itself shares out work cannot wait on a helper busy with its caller).
private final class SharedWork: Sendable {
    let count: Int
    let body: @Sendable (Int) -> Void
    private let next = Atomic<Int>(0)
    private let done = Atomic<Int>(0)
    private let finished = DispatchSemaphore(value: 0)

    init(count: Int, body: @escaping @Sendable (Int) -> Void) {
        self.count = count
        self.body = body
    }

    func run() {
        while true {
            let index = next.add(1, ordering: .relaxed).oldValue
            guard index < count else { return }
            body(index)
            if done.add(1, ordering: .acquiringAndReleasing).newValue == count { finished.signal() }
        }
    }

    func waitUntilDone() {
        guard count > 0 else { return }
        finished.wait()
    }
}
