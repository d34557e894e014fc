import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Runs `body(index)` for every index below `count` on the machine's cores — threads of its own,
/// started at once, and the calling thread, which first runs `meanwhile` — and returns
/// `meanwhile`'s result when every index is done. For work measured in milliseconds, where
/// libdispatch's first worker thread (half a millisecond in coming) would be most of the gain.
public func concurrently<T>(_ count: Int, meanwhile: () throws -> T, _ body: @escaping @Sendable (Int) -> Void) rethrows -> T {
    let counter = NextIndex()
    @Sendable func work() {
        while true {
            let index = counter.next.add(1, ordering: .relaxed).oldValue
            guard index < count else { return }
            body(index)
        }
    }
    let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    let group = DispatchGroup()
    for _ in 0..<max(0, min(cores, count) - 1) {
        group.enter()
        startThread {
            work()
            group.leave()
        }
    }
    defer {
        work()
        group.wait()
    }
    return try meanwhile()
}

/// The next index to take, shared by the threads of `concurrently`.
private final class NextIndex: Sendable {
    let next = Atomic<Int>(0)
}
