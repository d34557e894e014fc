import Basics
@_spi(Store) import CommuteStore
import FoundationEssentials

// What each store file may hold. A file that parses but holds an impossible value (an hour of 99,
// a negative count, a zone that does not exist) is refused when read — exit 65 with the path and
// the reason, the file untouched — instead of reaching arithmetic, an array index or a loop.

extension DeliveryLedger {
    public func validate() throws(DocumentProblem) {
        for (index, entry) in entries.enumerated() {
            try DocumentProblem.range(entry.attempts, 0...1_000_000, "entries[\(index)].attempts")
            if let notifier = entry.notifier {
                try DocumentProblem.range(notifier, 0...Notifier.largestID, "entries[\(index)].notifier")
            }
            // Shown by `delivered` and read back to change a notification: one short line each.
            for (name, text) in [("key", entry.key?.description), ("handle", entry.handle), ("claimant", entry.claimant)] {
                guard let text else { continue }
                try DocumentProblem.check(text.count <= 1_000 && DisplayText.line(text) == text, "entries[\(index)].\(name) is not one short line")
            }
        }
    }
}
