import CommuteCore
import Testing

@Suite struct DeliveryFailureTests {
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
