@_spi(Store) @testable import CommuteDelivery
@testable import CommuteModel
@_spi(Store) @testable import CommuteStore
import Foundation
import TestThreads
import Testing

/// A ledger written in order says so, and is read from its end: what the reading gives is what a
/// whole reading gives from the cutoff on. Anything else is read whole.
@Suite(.ownThreads) struct LedgerTailTests {
    let start = Date(timeIntervalSince1970: 1_762_300_800)

    /// `count` decisions a minute apart (every fifth an update of a notification already out), each
    /// with a reason that holds what an entry's start looks like.
    func ledger(_ count: Int) -> DeliveryLedger {
        DeliveryLedger(entries: (0..<count).map { index in
            let at = start.addingTimeInterval(TimeInterval(index * 60))
            return DeliveryLedger.Entry(
                alert: .test(index), occurrence: at, notifier: 0, outcome: index % 7 == 0 ? .failed : .delivered, at: at, attempts: 1,
                reason: #"},{"at":"2099-01-01T00:00:00Z","outcome":"delivered"}"#, action: index % 5 == 0 ? .updated : nil)
        })
    }

    @Test func anOrderedLedgerIsReadFromItsEndAsAWholeReadingWouldGiveIt() throws {
        let written = Data(try ledger(500).encodeDocument())
        #expect(String(decoding: written, as: UTF8.self).hasSuffix(#"],"ordered":true,"version":1}"# + "\n"))
        let whole = try DeliveryLedger.decodeDocument(from: written)
        for minutes in [0, 1, 250, 498, 499, 500, 2_000] {
            let cutoff = start.addingTimeInterval(TimeInterval(minutes * 60) - 0.5)
            let wanted = whole.entries.filter { $0.at >= cutoff }
            if minutes == 0 {
                // Nothing before the cutoff: the whole file is wanted, and read whole.
                #expect(DeliveryLedger.tailDocument(of: written, since: cutoff) == nil)
                continue
            }
            let tail = try #require(DeliveryLedger.tailDocument(of: written, since: cutoff), "cutoff \(minutes)")
            let read = try DeliveryLedger.decodeDocument(from: Data(tail))
            // Entries a whole second before the cutoff are never read; one in its second may be.
            #expect(read.entries.filter { $0.at >= cutoff } == wanted, "cutoff \(minutes)")
            #expect(read.entries.allSatisfy { $0.at >= cutoff.addingTimeInterval(-1) })
            let decisions = try DeliveryLedger.decisions(from: written, since: cutoff, detailSince: cutoff.addingTimeInterval(600))
            #expect(try DeliveryLedger.decisions(from: Data(tail), since: cutoff, detailSince: cutoff.addingTimeInterval(600)) == decisions)
            // Read entry by entry in the form this build writes: the same decisions, sends and all.
            #expect(DeliveryLedger.tailDecisions(of: written, since: cutoff, detailSince: cutoff.addingTimeInterval(600)) == decisions)
        }
    }

    @Test func aLedgerOutOfOrderOrWrittenOtherwiseIsReadWhole() throws {
        var shuffled = ledger(50)
        shuffled.entries.swapAt(10, 40)
        let written = Data(try shuffled.encodeDocument())
        #expect(!String(decoding: written, as: UTF8.self).contains(#""ordered""#))
        #expect(DeliveryLedger.tailDocument(of: written, since: start.addingTimeInterval(3_000)) == nil)
        // Written by hand, or by another program: no mark, no tail.
        let byHand = Data(#"{"version": 1, "entries": [{"at": "2025-11-05T00:00:00Z", "attempts": 1, "occurrence": "2025-11-05T00:00:00Z", "outcome": "delivered", "requestID": "test.1"}]}"#.utf8)
        #expect(DeliveryLedger.tailDocument(of: byHand, since: start) == nil)
        // A mark on a ledger whose `at` is written otherwise: read whole.
        let odd = Data(#"{"entries":[{"at":"2025-11-05T00:00:00+00:00","attempts":1,"occurrence":"2025-11-05T00:00:00Z","outcome":"delivered","requestID":"test.1"},{"at":"2025-11-05T00:01:00+00:00","attempts":1,"occurrence":"2025-11-05T00:00:00Z","outcome":"delivered","requestID":"test.2"}],"ordered":true,"version":1}"#.utf8)
        #expect(DeliveryLedger.tailDocument(of: odd, since: start.addingTimeInterval(30)) == nil)
    }

    /// The entry-by-entry reading gives up on anything not in the form this build writes (then
    /// the tail is read as JSON): spaces, a nested value, an outcome it does not know.
    @Test func thePlainReadingOfDecisionsTakesOnlyThePlainForm() throws {
        let text = String(decoding: try ledger(20).encodeDocument(), as: UTF8.self)
        let cutoff = start.addingTimeInterval(10 * 60 - 0.5)
        #expect(DeliveryLedger.tailDecisions(of: Data(text.utf8), since: cutoff, detailSince: nil)?.count == 10)
        let last = try #require(text.range(of: #""attempts":1"#, options: .backwards))
        for replacement in [#" "attempts":1"#, #""attempts":[1]"#, #""attempts":{"n":1}"#] {
            var changed = text
            changed.replaceSubrange(last, with: replacement)
            #expect(DeliveryLedger.tailDecisions(of: Data(changed.utf8), since: cutoff, detailSince: nil) == nil, "\(replacement)")
        }
        var unknown = text
        unknown.replaceSubrange(try #require(text.range(of: #""outcome":"delivered""#, options: .backwards)), with: #""outcome":"lost""#)
        #expect(DeliveryLedger.tailDecisions(of: Data(unknown.utf8), since: cutoff, detailSince: nil) == nil)
    }

    /// A damaged tail in a marked file is not read around: the store reads it whole, and names
    /// the same problem a whole reading does.
    @Test func aDamagedTailIsReadWholeAndRefusedAsAWholeReadingRefusesIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-tail-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try Store(directory: directory)
        var text = String(decoding: try ledger(100).encodeDocument(), as: UTF8.self)
        let last = try #require(text.range(of: #""outcome":"delivered""#, options: .backwards))
        text.replaceSubrange(last, with: #""outcome":"lost""#)
        try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/delivered.json"))
        let cutoff = start.addingTimeInterval(90 * 60)
        var tailProblem = ""
        do { _ = try store.ledgerTail(since: cutoff) } catch { tailProblem = "\(error)" }
        var wholeProblem = ""
        do { _ = try store.ledger() } catch { wholeProblem = "\(error)" }
        #expect(tailProblem.contains("'lost' is not an outcome") && tailProblem == wholeProblem, "\(tailProblem)")
        // Whole, the store's tail is exactly the whole reading's from the cutoff.
        try Data(try ledger(100).encodeDocument()).write(to: URL(fileURLWithPath: directory + "/delivered.json"))
        #expect(try store.ledgerTail(since: cutoff).entries == store.ledger().entries.filter { $0.at >= cutoff })
    }
}
