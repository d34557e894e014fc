@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite(.ownThreads) struct DeliveryFailureTests {
    @Test func aFailureSaysWhatHappenedAndRedactingTakesEverySecretOut() {
        let secret = "tk_SECRET"
        let failures: [DeliveryFailure] = [
            .exited(program: "notify", status: 3, errors: "bad \(secret)"), .programTimedOut(program: "/bin/\(secret)", seconds: 10),
            .couldNotRun(program: "notify", reason: secret), .notWebhookURL("ftp://\(secret)"),
            .answered(target: "https://\(secret)", status: 500), .redirectWithoutLocation(target: secret, status: 307),
            .redirectNotFollowed(target: secret, status: 302), .noAnswer(target: secret, seconds: 10),
            .tooManyRedirects(target: secret, limit: 5), .transport(target: "https://h", reason: "TLS \(secret)"),
        ]
        for failure in failures {
            #expect(failure.description.contains(secret), "\(failure)")
            #expect(!failure.redacting([secret]).description.contains(secret), "\(failure)")
            #expect(DeliveryResult.failed(failure).failure == failure.description)
        }
        #expect(DeliveryFailure.exited(program: "notify-send", status: 1, errors: "").description == "notify-send exited with status 1")
        #expect(DeliveryFailure.answered(target: "https://ntfy.sh", status: 429).description == "https://ntfy.sh answered HTTP 429")
        #expect(DeliveryResult.delivered.failure == nil)
    }
}

@Suite(.ownThreads) struct ProgramLookupTests {
    /// A program named without a path is found on the PATH of the environment it is given, not on
    /// this process's: what a caller hands over is what the child sees and what runs.
    @Test func aProgramIsFoundOnTheGivenPathOnly() throws {
        let directory = TemporaryDirectory()
        let name = "tt-only-here-\(UInt32.random(in: 0...UInt32.max))"
        try directory.write(name, "#!/bin/sh\nexit 0\n")
        let script = "\(directory.path)/\(name)"
        #expect(chmod(script, 0o755) == 0)
        let message = AlertMessage(id: .test(1), title: "Title", body: "Body")
        #expect(ExecNotifier.send(message, program: name, arguments: [], environment: ["PATH": "/usr/bin:/bin:\(directory.path)"]) == .delivered)
        let missing = ExecNotifier.send(message, program: name, arguments: [], environment: ["PATH": "/usr/bin:/bin"])
        #expect(missing.failure?.hasPrefix("cannot run \(name): ") == true, "\(missing)")
        // A relative directory on PATH is passed over, as `notify add` passes it over.
        #expect(ExecNotifier.send(message, program: "sh", arguments: ["-c", "exit 0"], environment: ["PATH": "bin:/bin"]) == .delivered)
    }
}
