import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a program with `posix_spawn`, feeds it `input` and collects its stdout, within a deadline.
///
/// Foundation's `Process` costs about 30 ms a launch on Linux (it closes every descriptor up to the
/// limit); this costs well under one. Stderr goes to /dev/null. The child is killed with SIGKILL
/// (which, unlike SIGTERM, a blocked signal mask cannot hold off) if it overruns.
enum Subprocess {
    enum Failure: Error, Equatable, CustomStringConvertible {
        case cannotStart(String)
        case timedOut
        case outputTooLarge

        var description: String {
            switch self {
            case .cannotStart(let reason): reason
            case .timedOut: "timed out"
            case .outputTooLarge: "too much output"
            }
        }
    }

    static func run(_ path: String, input: Data, timeout: TimeInterval, maximumOutput: Int) throws(Failure) -> Data {
        try run(path, arguments: [], environment: nil, input: input, timeout: timeout, maximumOutput: maximumOutput).output
    }

    /// Runs `program` (a path, or a name looked up in PATH) with arguments and extra environment
    /// variables; returns its stdout and exit status.
    static func run(
        _ program: String, arguments: [String], environment extra: [String: String]?, input: Data, timeout: TimeInterval,
        maximumOutput: Int
    ) throws(Failure) -> (output: Data, status: Int32) {
        let path = program
        guard let toChild = closeOnExecPipe() else { throw .cannotStart(errnoText()) }
        guard let fromChild = closeOnExecPipe() else {
            close(toChild[0])
            close(toChild[1])
            throw .cannotStart(errnoText())
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the copies; every other descriptor of ours closes at exec.
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var environmentStrings: [UnsafeMutablePointer<CChar>?] = []
        if let extra {
            var merged = ProcessInfo.processInfo.environment
            for (name, value) in extra { merged[name] = value }
            environmentStrings = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        defer { environmentStrings.forEach { free($0) } }
        var pid: pid_t = 0
        // A bare name is looked up in PATH, as a shell would (but no shell runs).
        let spawned = extra == nil
            ? (path.contains("/") ? posix_spawn(&pid, path, &actions, nil, argv, environ) : posix_spawnp(&pid, path, &actions, nil, argv, environ))
            : (path.contains("/") ? posix_spawn(&pid, path, &actions, nil, argv, environmentStrings) : posix_spawnp(&pid, path, &actions, nil, argv, environmentStrings))
        close(toChild[0])
        close(fromChild[1])
        guard spawned == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw .cannotStart(String(cString: strerror(spawned)))
        }
        defer { close(fromChild[0]) }

        // The request is small: one write, then end of input.
        // A child that stops reading early fails on its own terms: its answer says why.
        _ = input.withUnsafeBytes { writeAll(toChild[1], $0) }
        close(toChild[1])

        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1e9)
        var failure: Failure?
        while failure == nil {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else {
                failure = .timedOut
                break
            }
            var descriptor = pollfd(fd: fromChild[0], events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(1_000, (deadline - now) / 1_000_000 + 1)))
            if ready < 0, errno != EINTR { failure = .cannotStart(errnoText()) }
            guard ready > 0 else { continue }
            let count = read(fromChild[0], &chunk, chunk.count)
            if count == 0 { break }
            if count < 0 {
                if errno != EINTR { failure = .cannotStart(errnoText()) }
                continue
            }
            output.append(contentsOf: chunk[0..<count])
            if output.count > maximumOutput { failure = .outputTooLarge }
        }
        if failure != nil { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        if let failure { throw failure }
        // Exit status, or 128 + the signal that ended it.
        let exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (output, exitStatus)
    }

    /// A pipe whose ends close at exec (Glibc's `pipe2` is not visible to Swift).
    private static func closeOnExecPipe() -> [Int32]? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return ends
    }
}
