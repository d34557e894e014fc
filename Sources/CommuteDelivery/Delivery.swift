import Basics
import CommuteModel
import FoundationEssentials

/// How one notifier's attempt at one alert ended. Success is the program's exit status 0, or
/// HTTP 2xx from the final endpoint with the body delivered — nothing else.
public enum DeliveryResult: Sendable, Equatable {
    case delivered
    case failed(DeliveryFailure)

    /// Why it failed, as the ledger and the terminal say it; nil when delivered.
    public var failure: String? {
        if case .failed(let reason) = self { return reason.description }
        return nil
    }
}

/// Why a notifier did not deliver an alert. Its texts hold no secret: a URL is redacted to its
/// scheme and host before it is put in one.
public enum DeliveryFailure: Sendable, Equatable, CustomStringConvertible {
    /// The program exited with a status other than 0; `errors` is the start of its stderr.
    case exited(program: String, status: Int32, errors: String)
    /// The program did not finish within the timeout.
    case programTimedOut(program: String, seconds: Int)
    /// The program could not be started.
    case couldNotRun(program: String, reason: String)
    /// The webhook's URL is not http(s).
    case notWebhookURL(String)
    /// The server answered with a status that is not success.
    case answered(target: String, status: Int)
    /// A 307 or 308 without an http(s) place to go.
    case redirectWithoutLocation(target: String, status: Int)
    /// A 301, 302 or 303: following it would turn the POST into a GET without the alert.
    case redirectNotFollowed(target: String, status: Int)
    /// The server did not answer within the timeout.
    case noAnswer(target: String, seconds: Int)
    /// Redirects past the limit.
    case tooManyRedirects(target: String, limit: Int)
    /// The fetch helper, which sends webhooks, is not there.
    case helperMissing(path: String)
    /// The request failed on its way: no connection, a TLS error.
    case transport(target: String, reason: String)
    /// A notification service answered no, in its own words: `Telegram: chat not found (400)`.
    case refused(service: String, reason: String, status: Int)
    /// The service asked to wait (429) longer than a tick can.
    case rateLimited(service: String, retryAfter: Int?)
    /// The channel cannot do what was asked (clear a Pushover message): not retried.
    case unsupported(String)
    /// Not sent: the tick spent its time on the alerts before it; the next tick sends it.
    case outOfTime(seconds: Int)

    public var description: String {
        switch self {
        case .exited(let program, let status, let errors): "\(program) exited with status \(status)" + (errors.isEmpty ? "" : ": \(errors)")
        case .programTimedOut(let program, let seconds): "\(program) did not finish within \(seconds) s"
        case .couldNotRun(let program, let reason): "cannot run \(program): \(reason)"
        case .notWebhookURL(let shown): "not an http(s) URL: \(shown)"
        case .answered(let target, let status): "\(target) answered HTTP \(status)"
        case .redirectWithoutLocation(let target, let status): "\(target) answered HTTP \(status) with no http(s) Location"
        case .redirectNotFollowed(let target, let status):
            "\(target) answered HTTP \(status), a redirect that would turn the POST into a GET without the alert; "
                + "not followed — use the URL it redirects to"
        case .noAnswer(let target, let seconds): "\(target) did not answer within \(seconds) s"
        case .tooManyRedirects(let target, let limit): "\(target) redirected more than \(limit) times"
        case .helperMissing(let path): FetchHelper.missing(path)
        case .transport(let target, let reason): "\(target): \(reason)"
        case .refused(let service, let reason, let status): "\(service): \(reason) (\(status))"
        case .rateLimited(let service, let seconds): "\(service): rate limited (429)" + (seconds.map { "; retry after \($0) s" } ?? "")
        case .unsupported(let reason): reason
        case .outOfTime(let seconds): "not sent: this tick's \(seconds) s ran out; the next tick sends it"
        }
    }

    /// The same, with each of `secrets` taken out of every text in it.
    public func redacting(_ secrets: [String]) -> DeliveryFailure {
        let clean = { (text: String) in FeedSource.redact(text, secrets: secrets) }
        return switch self {
        case .exited(let program, let status, let errors): .exited(program: clean(program), status: status, errors: clean(errors))
        case .programTimedOut(let program, let seconds): .programTimedOut(program: clean(program), seconds: seconds)
        case .couldNotRun(let program, let reason): .couldNotRun(program: clean(program), reason: clean(reason))
        case .notWebhookURL(let shown): .notWebhookURL(clean(shown))
        case .answered(let target, let status): .answered(target: clean(target), status: status)
        case .redirectWithoutLocation(let target, let status): .redirectWithoutLocation(target: clean(target), status: status)
        case .redirectNotFollowed(let target, let status): .redirectNotFollowed(target: clean(target), status: status)
        case .noAnswer(let target, let seconds): .noAnswer(target: clean(target), seconds: seconds)
        case .tooManyRedirects(let target, let limit): .tooManyRedirects(target: clean(target), limit: limit)
        case .helperMissing(let path): .helperMissing(path: path)
        case .transport(let target, let reason): .transport(target: clean(target), reason: clean(reason))
        case .refused(let service, let reason, let status): .refused(service: service, reason: clean(reason), status: status)
        case .rateLimited(let service, let seconds): .rateLimited(service: service, retryAfter: seconds)
        case .unsupported(let reason): .unsupported(clean(reason))
        case .outOfTime: self
        }
    }
}

/// Sends an alert through one notifier. `NotifierSender` is the real one; tests pass their own.
public protocol AlertSender {
    func send(_ message: AlertMessage, through notifier: Notifier) -> DeliveryResult
    /// Sends, updates or clears, returning the channel's handle for the notification.
    func perform(_ operation: AlertOperation, through notifier: Notifier) -> AlertReceipt
}

extension AlertSender {
    /// A sender that only sends (a test's): an update is sent as a new message, a clear refused.
    public func perform(_ operation: AlertOperation, through notifier: Notifier) -> AlertReceipt {
        guard let message = operation.message else { return .cannot("this sender cannot clear") }
        return AlertReceipt(result: send(message, through: notifier))
    }
}

/// One occurrence of an alert: the alert, and the instant it was due.
public struct Occurrence: Sendable, Hashable {
    public var alert: AlertID
    public var at: Date

    public init(_ alert: AlertID, at: Date) {
        self.alert = alert
        self.at = at
    }
}

/// An occurrence taken by this process to deliver through one notifier. It is written to the ledger
/// as `claimed` before it is sent, under the pending lock, so that no other process sends it too.
public struct Claim: Sendable, Equatable {
    public var occurrence: Occurrence
    public var notifier: Notifier
    /// 1 for the first attempt.
    public var attempt: Int
    /// An earlier claim was left by a process that died while sending: this sends it again, and
    /// the notifier may have had it once already (delivery is at least once across a crash).
    public var isResend: Bool
    /// The handle of an earlier attempt that reached some of the notifier's targets: the rest
    /// are what is left to send.
    public var reached: String?

    public init(occurrence: Occurrence, notifier: Notifier, attempt: Int, isResend: Bool, reached: String? = nil) {
        self.occurrence = occurrence
        self.notifier = notifier
        self.attempt = attempt
        self.isResend = isResend
        self.reached = reached
    }
}

/// A claim and the message it sends.
public struct Delivery: Sendable, Equatable {
    public var claim: Claim
    public var message: AlertMessage
    /// What the ledger says of it when it is delivered: `late by 3 min`, `resent after an
    /// interrupted tick`.
    public var note: String?
    /// An arrive-by alert's leave time, as it says it.
    public var leave: Date?
    /// Whether it is an arrive-by heads-up: revised when the leave time moves, replaced by the
    /// leave alert.
    public var isHeadsUp = false
    /// A leave alert's transit trip, followed once it is sent.
    public var follow: FollowedTrip?

    public init(claim: Claim, message: AlertMessage, note: String?, leave: Date? = nil, isHeadsUp: Bool = false, follow: FollowedTrip? = nil) {
        self.claim = claim
        self.message = message
        self.note = note
        self.leave = leave
        self.isHeadsUp = isHeadsUp
        self.follow = follow
    }
}

/// A delivery and how it ended.
public struct SentAlert: Sendable, Equatable {
    public var delivery: Delivery
    public var result: DeliveryResult
    /// The channel's handle for the notification, when it gave one.
    public var handle: String? = nil
    /// Whether it changed a notification already out there rather than send a new one.
    public var replaced = false

    public init(delivery: Delivery, result: DeliveryResult, handle: String? = nil, replaced: Bool = false) {
        self.delivery = delivery
        self.result = result
        self.handle = handle
        self.replaced = replaced
    }
}

extension DeliveryLedger {
    /// Writes a claim: the occurrence is being delivered through the notifier now. A resend takes
    /// over the claim its dead tick left, rather than leave it behind.
    package mutating func claim(_ claim: Claim, at now: Date) {
        if claim.isResend, let index = entries.lastIndex(where: {
            $0.isFor(claim.occurrence, notifier: claim.notifier.id) && $0.outcome == .claimed
        }) {
            entries[index].at = now
            entries[index].attempts = claim.attempt
            entries[index].claimant = Claimant.current
            return
        }
        entries.append(Entry(
            alert: claim.occurrence.alert, occurrence: claim.occurrence.at, notifier: claim.notifier.id,
            outcome: .claimed, at: now, attempts: claim.attempt, handle: claim.reached, claimant: Claimant.current))
    }

    /// Ends the claims on an occurrence that a dead tick left, past the occurrence's window: each
    /// becomes `missed`, so that every claimed occurrence ends in the ledger. Returns how many.
    @discardableResult
    package mutating func endAbandonedClaims(of occurrence: Occurrence, reason: String, now: Date) -> Int {
        var ended = 0
        var latest: [Int: Int] = [:]
        for (index, entry) in entries.enumerated() where entry.action == nil && entry.occurrence == occurrence.at
            && entry.alert == occurrence.alert
        {
            if let notifier = entry.notifier { latest[notifier] = index }
        }
        for index in latest.values.sorted() where entries[index].isAbandoned(now: now) {
            entries[index].outcome = .missed
            entries[index].reason = reason
            entries[index].at = now
            entries[index].claimant = nil
            ended += 1
        }
        return ended
    }

    /// Turns a claim into its outcome. A claim that has gone (`delivered clear` ran meanwhile) is
    /// written afresh: what happened is recorded either way.
    package mutating func record(_ sent: SentAlert, key: AlertKey, at now: Date) {
        let claim = sent.delivery.claim
        let reason = sent.result.failure ?? sent.delivery.note ?? (sent.replaced ? "in place of the alert before it" : nil)
        let outcome: Entry.Outcome = sent.result == .delivered ? .delivered : .failed
        if let index = entries.lastIndex(where: {
            $0.isFor(claim.occurrence, notifier: claim.notifier.id) && $0.outcome == .claimed
        }) {
            entries[index].outcome = outcome
            entries[index].reason = reason
            entries[index].at = now
            entries[index].key = key
            entries[index].handle = sent.handle
            entries[index].leave = sent.delivery.leave
            entries[index].claimant = nil
        } else {
            entries.append(Entry(
                alert: claim.occurrence.alert, occurrence: claim.occurrence.at, notifier: claim.notifier.id,
                outcome: outcome, at: now, attempts: claim.attempt, reason: reason, key: key, handle: sent.handle,
                leave: sent.delivery.leave))
        }
    }

    /// Records a decision about an occurrence as a whole (missed, suppressed).
    package mutating func decide(_ occurrence: Occurrence, _ outcome: Entry.Outcome, reason: String, at now: Date) {
        entries.append(Entry(
            alert: occurrence.alert, occurrence: occurrence.at, notifier: nil, outcome: outcome, at: now,
            reason: reason))
    }

    /// The entries of every scheduled occurrence since `date`, oldest first, by occurrence.
    public func historiesOfRecentOccurrences(since date: Date) -> [Occurrence: [Entry]] {
        var histories: [Occurrence: [Entry]] = [:]
        // Revisions and clears of a notification are not the occurrence's delivery.
        for entry in entries where entry.action == nil && entry.occurrence >= date && entry.alert.kind == .schedule {
            histories[entry.about, default: []].append(entry)
        }
        return histories
    }

    /// Whether an occurrence's history shows it dealt with: missed or suppressed as a whole, or
    /// delivered through every notifier that was tried. A failure or a claim still in flight is
    /// not: it may be tried again while the grace window lasts.
    public static func isFinished(_ history: [Entry]) -> Bool {
        if history.contains(where: { $0.notifier == nil && ($0.outcome == .missed || $0.outcome == .suppressed) }) {
            return true
        }
        var latest: [Int: Entry.Outcome] = [:]
        for entry in history { if let notifier = entry.notifier { latest[notifier] = entry.outcome } }
        return !latest.isEmpty && latest.values.allSatisfy { $0 == .delivered }
    }
}
