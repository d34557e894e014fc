import Basics
@_spi(Store) @testable import CommuteCore
import Foundation
import TestThreads
import Testing

/// install's use of the scheduler, driven without the binary: the crontab read and written
/// through `crontab`, and `systemctl` run, each a stand-in on PATH.
@Suite(.ownThreads) struct SchedulerCommandTests {
    /// A folder on PATH holding `name`, a shell script.
    static func tools(_ scripts: [String: String]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scheduler-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, script) in scripts {
            try Data(("#!/bin/sh\n" + script).utf8).write(to: URL(fileURLWithPath: "\(folder)/\(name)"))
            chmod("\(folder)/\(name)", 0o755)
        }
        return folder
    }

    @Test func theCrontabIsReadAndWrittenThroughCrontab() throws {
        let folder = try Self.tools(["crontab": "if [ \"$1\" = -l ]; then [ -f \"$(dirname \"$0\")/table\" ] || exit 1; cat \"$(dirname \"$0\")/table\"; else cat > \"$(dirname \"$0\")/table\"; fi\n"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = ["PATH": folder + ":/usr/bin:/bin"]
        // No table yet: `crontab -l` fails, which is an empty table.
        #expect(Installation.readCrontab(environment: environment) == "")
        try Installation.writeCrontab("MAILTO=\"\"\n*/15 * * * * refresh\n", environment: environment)
        #expect(Installation.readCrontab(environment: environment) == "MAILTO=\"\"\n*/15 * * * * refresh\n")
        // No crontab command at all: nil.
        #expect(Installation.readCrontab(environment: ["PATH": "/nonexistent"]) == nil)
    }

    @Test func aFailingSystemctlIsNamedWithItsOwnWordsAndWhatToCheck() throws {
        let folder = try Self.tools(["systemctl": "echo 'Failed to connect to bus: No medium found' >&2\nexit 1\n"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        do throws(SchedulerFailure) {
            try Installation.systemctl(["systemctl", "--user", "daemon-reload"], environment: ["PATH": folder + ":/usr/bin:/bin"])
            Issue.record("a failing systemctl was taken as done")
        } catch {
            #expect(error.description == "`systemctl --user daemon-reload` failed: it exited with status 1: Failed to connect to bus: No medium found (is a user session running? `systemctl --user status` says; on a server, `loginctl enable-linger \"$USER\"` gives one)")
        }
        let crontab = try Self.tools(["crontab": "exit 3\n"])
        defer { try? FileManager.default.removeItem(atPath: crontab) }
        #expect(throws: SchedulerFailure(command: "crontab -", reason: "it exited with status 3; the table was not changed")) {
            try Installation.writeCrontab("x\n", environment: ["PATH": crontab + ":/usr/bin:/bin"])
        }
        // A table larger than a pipe holds, to a crontab that reads none of it: the write fails
        // with EPIPE (were SIGPIPE not taken, this test process would end here), and the exit
        // status is what is said.
        #expect(throws: SchedulerFailure(command: "crontab -", reason: "it exited with status 3; the table was not changed")) {
            try Installation.writeCrontab(String(repeating: "# a comment line that fills the pipe\n", count: 40_000), environment: ["PATH": crontab + ":/usr/bin:/bin"])
        }
    }

    /// A child gets its three standard streams and no other descriptor of this process: not one
    /// opened without close-on-exec (Foundation's pipes and file handles are), which a child that
    /// lives on (a notifier's background job) would hold — a pipe its reader waits on for ever,
    /// a script being written that then cannot run ("Text file busy").
    @Test func aChildGetsItsThreeStreamsAndNoOtherDescriptor() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("inherited-\(UUID().uuidString)").path
        let descriptor = open(file, O_WRONLY | O_CREAT, 0o600)
        try #require(descriptor > 3)
        defer {
            close(descriptor)
            unlink(file)
        }
        let pipe = Pipe()
        let listing = try Subprocess.exchange(
            "/bin/sh", arguments: ["-c", "for f in /proc/$$/fd/*; do echo \"${f##*/}\"; done"],
            environment: ["PATH": "/usr/bin:/bin"], input: Data(), timeout: 10, maximumOutput: 4096)
        #expect(listing.status == 0)
        // 3 is the shell's own, open on /proc/$$/fd while it lists it.
        #expect(String(decoding: listing.output, as: UTF8.self) == "0\n1\n2\n3\n", "the child also held \(descriptor) and the pipe's \(pipe.fileHandleForWriting.fileDescriptor)")
    }

    /// A program held open for writing cannot be run ("Text file busy"); one that is, for a
    /// moment (a script just written while another thread forked), runs once it is free.
    @Test func aProgramBusyForAMomentRunsWhenItIsFree() throws {
        let folder = try Self.tools(["busy": "echo ran\n"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let writer = open("\(folder)/busy", O_WRONLY | O_CLOEXEC)
        try #require(writer >= 0)
        let released = Thread {
            usleep(150_000)
            close(writer)
        }
        released.start()
        let started = Date()
        let run = try Subprocess.exchange("\(folder)/busy", environment: [:], input: Data(), timeout: 10, maximumOutput: 100)
        #expect(run.status == 0 && String(decoding: run.output, as: UTF8.self) == "ran\n")
        #expect(Date().timeIntervalSince(started) >= 0.1, "it ran while held open for writing")
        // Held for longer than the wait: it fails, saying why.
        let holder = open("\(folder)/busy", O_WRONLY | O_CLOEXEC)
        defer { close(holder) }
        #expect(throws: Subprocess.Failure.cannotStart("Text file busy")) {
            try Subprocess.exchange("\(folder)/busy", environment: [:], input: Data(), timeout: 10, maximumOutput: 100)
        }
    }
}
