import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Runs a program with `posix_spawn`, feeds it `input` and collects its stdout, within a deadline.
///
/// Foundation's `Process` costs about 30 ms a launch on Linux (it closes every descriptor up to the
/// limit); this costs well under one. Stderr goes to /dev/null. The child is killed with SIGKILL
/// (which, unlike SIGTERM, a blocked signal mask cannot hold off) if it overruns.
package enum Subprocess {
    package enum Failure: Error, Equatable, CustomStringConvertible {
        case cannotStart(String)
        case timedOut
        case outputTooLarge

        package var description: String {
            switch self {
            case .cannotStart(let reason): reason
            case .timedOut: "timed out"
            case .outputTooLarge: "too much output"
            }
        }
    }

    /// Runs `path` (or a name looked up in PATH) with `environment`, feeds it `input`, and collects
    /// its stdout to the end, within `timeout`: the conversation with the fetch helper, which
    /// writes its whole answer and exits, and with `crontab` and `systemctl`.
    /// With `ownGroup`, it runs in a process group of its own, killed whole when it overruns: a
    /// program that leaves children (sendmail's queue runner) leaves none behind. With
    /// `errorsToo`, its stderr is collected with its stdout (systemctl says why on stderr); else
    /// stderr goes nowhere.
    package static func exchange(
        _ path: String, arguments: [String] = [], environment: [String: String], input: Data, timeout: TimeInterval,
        maximumOutput: Int, ownGroup: Bool = false, errorsToo: Bool = false
    ) throws(Failure) -> (output: Data, status: Int32) {
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
        if errorsToo {
            posix_spawn_file_actions_adddup2(&actions, fromChild[1], 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let spawned = spawn(path, arguments: arguments, environment: environment, actions: &actions, ownGroup: ownGroup)
        close(toChild[0])
        close(fromChild[1])
        let pid: pid_t
        switch spawned {
        case .success(let child): pid = child
        case .failure(let failure):
            close(toChild[1])
            close(fromChild[0])
            throw failure
        }
        defer { close(fromChild[0]) }

        // The request is small: one write, then end of input.
        // A child that stops reading early fails on its own terms: its answer says why.
        _ = input.withUnsafeBytes { writeAllToChild(toChild[1], $0) }
        close(toChild[1])

        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let deadline = Deadline(seconds: timeout)
        var failure: Failure?
        while failure == nil {
            guard let wait = deadline.remainingMilliseconds else {
                failure = .timedOut
                break
            }
            var descriptor = pollfd(fd: fromChild[0], events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, wait)
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
        if failure != nil {
            if ownGroup { kill(-pid, SIGKILL) }
            kill(pid, SIGKILL)
        }
        let status = waitForExit(pid)
        if let failure { throw failure }
        return (output, status)
    }

    /// Starts `path` with one end of a Unix socket pair as its stdin and stdout, and returns its
    /// process ID and the other end (close-on-exec): a conversation of many requests, such as a
    /// fetch helper session. Writing to a socket with `MSG_NOSIGNAL` fails with `EPIPE` where a
    /// pipe would raise SIGPIPE, should the child have died.
    static func startConversation(
        _ path: String, arguments: [String], environment: [String: String]
    ) throws(Failure) -> (pid: pid_t, socket: Int32) {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { throw .cannotStart(errnoText()) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let spawned = spawn(path, arguments: arguments, environment: environment, actions: &actions, ownGroup: false)
        close(ends[1])
        switch spawned {
        case .success(let pid): return (pid, ends[0])
        case .failure(let failure):
            close(ends[0])
            throw failure
        }
    }

    /// Waits up to `timeout` for a child to exit, then kills it; returns its status.
    @discardableResult
    static func reap(_ pid: pid_t, within timeout: TimeInterval) -> Int32 {
        let deadline = Deadline(seconds: timeout)
        var pause: UInt32 = 500
        while deadline.remainingMilliseconds != nil {
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { return exitStatus(status) }
            if reaped < 0, errno != EINTR { return 127 }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
        kill(pid, SIGKILL)
        return waitForExit(pid)
    }

    /// Runs a program for its exit status, with stdin and stdout on /dev/null. What matters is the
    /// process: the wait ends when it exits, not when its output closes, so a background child
    /// left holding stderr (`sleep 30 &`) or a flood of output cannot hold the caller up or turn a
    /// success into a failure. Stderr is drained and all but its first 4 KiB discarded, for a
    /// failure's message. The program runs in a process group of its own, killed whole if it
    /// overruns `timeout`.
    package static func runForStatus(
        _ program: String, arguments: [String], environment: [String: String], timeout: TimeInterval
    ) throws(Failure) -> (status: Int32, errorOutput: String) {
        guard let errors = closeOnExecPipe() else { throw .cannotStart(errnoText()) }
        _ = fcntl(errors[0], F_SETFL, fcntl(errors[0], F_GETFL) | O_NONBLOCK)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        let spawned = spawn(program, arguments: arguments, environment: environment, actions: &actions, ownGroup: true)
        close(errors[1])
        defer { close(errors[0]) }
        guard case .success(let pid) = spawned else {
            if case .failure(let failure) = spawned { throw failure }
            throw .cannotStart("cannot start")
        }

        var kept: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        var errorsOpen = true
        var pause: UInt32 = 1_000
        let deadline = Deadline(seconds: timeout)
        while true {
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid {
                // What it wrote before it exited is in the pipe: take it, without waiting for more.
                while errorsOpen, kept.count < 4_096 {
                    let count = read(errors[0], &chunk, chunk.count)
                    guard count > 0 else { break }
                    kept += chunk[0..<min(count, 4_096 - kept.count)]
                }
                return (exitStatus(status), firstLine(kept))
            }
            if reaped < 0, errno != EINTR { return (127, firstLine(kept)) }
            guard let wait = deadline.remainingMilliseconds else {
                // The whole group: a shell's children too.
                kill(-pid, SIGKILL)
                kill(pid, SIGKILL)
                _ = waitForExit(pid)
                throw .timedOut
            }
            if errorsOpen {
                var descriptor = pollfd(fd: errors[0], events: Int16(POLLIN), revents: 0)
                _ = poll(&descriptor, 1, min(wait, 20))
                let count = read(errors[0], &chunk, chunk.count)
                if count > 0 {
                    if kept.count < 4_096 { kept += chunk[0..<min(count, 4_096 - kept.count)] }
                } else if count == 0 {
                    errorsOpen = false
                }
            } else {
                usleep(pause)
                pause = min(pause * 2, 20_000)
            }
        }
    }

    /// Spawns `program` (a path, or a name looked up in `environment`'s PATH as a shell would,
    /// though no shell runs) with exactly `environment`; with `ownGroup`, in a process group of its
    /// own. Signals the parent ignores are reset for the child.
    private static func spawn(
        _ program: String, arguments: [String], environment: [String: String],
        actions: inout posix_spawn_file_actions_t, ownGroup: Bool
    ) -> Result<pid_t, Failure> {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = Int16(POSIX_SPAWN_SETSIGDEF)
        if ownGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= Int16(POSIX_SPAWN_SETPGROUP)
        }
        posix_spawnattr_setflags(&attributes, flags)
        // The child's PATH, not this process's: a caller that hands over an environment (a test, a
        // library user) gets the programs that environment names.
        guard let executable = resolve(program, path: environment[.path]) else {
            return .failure(.cannotStart(String(cString: strerror(ENOENT))))
        }
        // The child keeps its three standard streams and nothing else: with glibc 2.34 or later
        // the spawn closes the rest in the child itself, so that a descriptor another thread opens
        // meanwhile (a file being written, a pipe) cannot slip through; before, they are marked
        // close-on-exec here.
        if Self.closeFrom?(&actions, 3) != 0 { closeInheritedDescriptorsOnExec() }
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        var code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        // "Text file busy": some process holds the program open for writing. A process that forks
        // while one of its threads writes a script briefly holds it too, until its child execs:
        // it passes in moments, so it is waited out for up to half a second.
        var waits = 0
        while code == ETXTBSY, waits < Self.busyWaits {
            usleep(10_000)
            waits += 1
            code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        }
        guard code == 0 else { return .failure(.cannotStart(String(cString: strerror(code)))) }
        return .success(pid)
    }

    /// `program` itself when it names a path; else the first executable file of that name in the
    /// absolute directories of `path` (default `/usr/bin:/bin`); nil when there is none.
    package static func resolve(_ program: String, path: String?) -> String? {
        guard !program.contains("/") else { return program }
        guard !program.isEmpty else { return nil }
        for directory in (path ?? "/usr/bin:/bin").split(separator: ":") where directory.hasPrefix("/") {
            let candidate = "\(directory)/\(program)"
            var status = stat()
            if stat(candidate, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// How many times, 10 ms apart, a program that is busy being written is tried again.
    static let busyWaits = 50

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), looked up when first
    /// needed: Swift's Glibc module does not declare it, and an older C library lacks it.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(
            symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Marks every descriptor this process inherited (beyond 0–2) close-on-exec, so that no child
    /// gets one: a notifier's background child holding a pipe of whoever started `traveltimes`
    /// would keep that caller waiting. Ours are opened close-on-exec already.
    private static func closeInheritedDescriptorsOnExec() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return }
        for name in names {
            guard let descriptor = Int32(name), descriptor > 2 else { continue }
            let flags = fcntl(descriptor, F_GETFD)
            if flags >= 0, flags & FD_CLOEXEC == 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    /// Waits for the child to end and returns its exit status.
    private static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return exitStatus(status)
    }

    /// The exit status, or 128 + the signal that ended it.
    private static func exitStatus(_ status: Int32) -> Int32 {
        status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    private static func firstLine(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return String(text.split(whereSeparator: \.isNewline).first ?? "").trimmingWhitespace()
    }

    /// A monotonic deadline, counted down in milliseconds for `poll`.
    private struct Deadline {
        let end: UInt64

        init(seconds: TimeInterval) {
            end = DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, min(seconds, 86_400)) * 1e9)
        }

        /// Milliseconds left (at least 1), or nil once it has passed.
        var remainingMilliseconds: Int32? {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < end else { return nil }
            return Int32(min((end - now) / 1_000_000 + 1, 60_000))
        }
    }

    /// A pipe whose ends close at exec (Glibc's `pipe2` is not visible to Swift).
    private static func closeOnExecPipe() -> [Int32]? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return ends
    }
}
