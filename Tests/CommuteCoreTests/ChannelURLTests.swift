@_spi(Store) @testable import CommuteCore
@testable import CommuteDelivery
@testable import CommuteModel
@testable import CommuteSources
@testable import CommuteStore
import Foundation
import Synchronization
import TestThreads
import Testing

/// Apprise-style URLs read as Apprise reads them, and the channels' limits.
@Suite(.ownThreads) struct ChannelURLTests {
    @Test func appriseURLsReadAsAppriseReadsThem() throws {
        #expect(try Channel(url: "ntfys://commute") == .ntfy(.init(server: "https://ntfy.sh", topic: "commute", authorization: nil, priority: nil, tags: [], click: nil)))
        #expect(try Channel(url: "ntfys://ntfy.sh/commute?priority=high&tags=car,warning") == .ntfy(.init(
            server: "https://ntfy.sh", topic: "commute", authorization: nil, priority: 4, tags: ["car", "warning"], click: nil)))
        #expect(try Channel(url: "ntfy://tk_abc@10.0.0.2:8080/commute") == .ntfy(.init(
            server: "http://10.0.0.2:8080", topic: "commute", authorization: "Bearer tk_abc", priority: nil, tags: [], click: nil)))
        #expect(try Channel(url: "ntfy://ada:pw@host/t") == .ntfy(.init(
            server: "http://host", topic: "t", authorization: "Basic " + Data("ada:pw".utf8).base64EncodedString(), priority: nil, tags: [], click: nil)))
        #expect(try Channel(url: "gotifys://push.example.com/sub/path/APPTOKEN?priority=high") == .gotify(.init(
            server: "https://push.example.com/sub/path", token: "APPTOKEN", priority: 8)))
        #expect(try Channel(url: "pover://USERKEY@APPTOKEN/phone/tablet?priority=emergency&interval=60&expire=600") == .pushover(.init(
            user: "USERKEY", token: "APPTOKEN", devices: ["phone", "tablet"], priority: 2, sound: nil, retry: 60, expire: 600)))
        #expect(try Channel(url: "tgram://123456:ABC-def_1/42/-100200300?silent=yes") == .telegram(.init(
            token: "123456:ABC-def_1", chats: ["42", "-100200300"], silent: true)))
        // An alias without its server is completed when sent, from the account's user ID (a
        // homeserver named example.org may answer at matrix.example.org).
        #expect(try Channel(url: "matrixs://syt_token@matrix.example.org/#commute") == .matrix(.init(
            server: "https://matrix.example.org", token: "syt_token", rooms: ["#commute"], messageType: "m.text")))
        // Apprise's reading: a `#` before the query is part of the path; each room is one.
        #expect(try Channel(url: "matrix://tok@host/#room1/#room2:example.org?msgtype=notice") == .matrix(.init(
            server: "http://host", token: "tok", rooms: ["#room1", "#room2:example.org"], messageType: "m.notice")))
        #expect(try Channel(url: "discord://bot@111/tok") == .discord(.init(webhookID: "111", token: "tok", botname: "bot")))
        // A service's own URL, as Apprise takes it, is its scheme's form.
        #expect(try Channel(url: "https://ntfy.sh/commute?priority=high") == Channel(url: "ntfys://ntfy.sh/commute?priority=high"))
        #expect(try Channel(url: "https://discord.com/api/webhooks/111/tok") == Channel(url: "discord://111/tok"))
        #expect(try Channel(url: "https://hooks.slack.com/services/T1/B2/X3") == Channel(url: "slack://T1/B2/X3"))
        #expect(Channel.looksLikeChannel("https://ntfy.sh/commute") && !Channel.looksLikeChannel("https://example.com/hook"))
        #expect(try Channel(url: "slack://T1/B2/X3") == .slack(.init(path: "T1/B2/X3")))
        // Apprise's json query: -PARAM passed on, +HEADER sent, :KEY a field, method=; the rest its own.
        // An option it does not take is refused, naming it, rather than dropped.
        let unknown = #expect(throws: Channel.ParseError.self) { try Channel(url: "jsons://example.com/in?x=1") }
        #expect(unknown?.description == "json option x= is not one traveltimes takes (it takes method): remove it")
        let copy = #expect(throws: Channel.ParseError.self) { try Channel(url: "mailto:ada@example.com?cc=bob@example.org") }
        #expect(copy?.description == "mailto option cc= is not one traveltimes takes (mailto:ADDRESS[,ADDRESS…] goes through this machine's sendmail): remove it")
        let delay = #expect(throws: Channel.ParseError.self) { try Channel(url: "ntfys://ntfy.sh/commute?delay=30m") }
        #expect(delay?.description == "ntfy option delay= is not one traveltimes takes (it takes auth, avatar_url, click, mode, priority, tags, token, xtags): remove it")
        // Apprise's options for how Apprise itself runs are taken and left to traveltimes; one
        // that would change what is sent is taken only with the value traveltimes keeps to.
        #expect(try Channel(url: "ntfys://ntfy.sh/commute?cto=5&rto=10&emojis=no&tz=UTC&verify=yes&format=text")
            == Channel(url: "ntfys://ntfy.sh/commute"))
        let insecure = #expect(throws: Channel.ParseError.self) { try Channel(url: "ntfys://ntfy.sh/commute?verify=no") }
        #expect(insecure?.description == "ntfy verify=no is not taken: traveltimes always verifies TLS certificates")
        let markdown = #expect(throws: Channel.ParseError.self) { try Channel(url: "ntfys://ntfy.sh/commute?format=markdown") }
        #expect(markdown?.description == "ntfy format=markdown is not what traveltimes sends: it sends text (format=text, or leave it out)")
        let avatar = #expect(throws: Channel.ParseError.self) { try Channel(url: "discord://111/tok?avatar=yes") }
        #expect(avatar?.description == "discord avatar=yes is not taken: traveltimes sends no avatar")
        // ntfy's priority words as Apprise reads them: by their first letters, others its default.
        #expect(try Channel(url: "ntfys://ntfy.sh/commute?priority=urgent") == Channel(url: "ntfys://ntfy.sh/commute"))
        #expect(try Channel(url: "ntfys://ntfy.sh/commute?priority=max") == Channel(url: "ntfys://ntfy.sh/commute?priority=5"))
        #expect(try Channel(url: "pover://u@t/phone/#family?url=https://example.com/m&url_title=Map") == .pushover(.init(
            user: "u", token: "t", devices: ["phone"], priority: nil, sound: nil, retry: 900, expire: 3_600, groups: ["family"],
            link: "https://example.com/m", linkTitle: "Map")))
        #expect(try Channel(url: "tgram://123456:ABC/?to=42,43") == Channel(url: "tgram://123456:ABC/42/43"))
        #expect(try Channel(url: "jsons://user:pw@example.com/in?-y=2&+X-Key=k&:note=n&method=put") == .json(.init(
            url: "https://user:pw@example.com/in?y=2", method: "PUT", headers: ["X-Key": "k"], extras: ["note": "n"])))
        #expect(try Channel(url: "mailto:ada@example.com,bob@example.org") == .sendmail(.init(recipients: ["ada@example.com", "bob@example.org"])))
        for bad in ["ntfy://host/Bad Topic", "ntfy://host:notaport/t", "gotify://host", "discord://abc/tok", "slack://T1/B2", "mailto:nobody",
                    "sms://123", "ntfy://host/a\nb", "tgram://abc:def/1", "pover://@x"] {
            #expect(throws: Channel.ParseError.self, "\(bad)") { try Channel(url: bad) }
        }
    }

    @Test func textPastAChannelsLimitIsCutWithAMark() {
        #expect(Limits.cut("abcdef", to: 4) == "abc…")
        #expect(Limits.cut("abc", to: 4) == "abc")
        let cut = Limits.cutBytes(String(repeating: "é", count: 3_000), to: 4_096)
        #expect(cut.utf8.count <= 4_096 && cut.hasSuffix("…") && cut.dropLast().allSatisfy { $0 == "é" })
    }

    /// Records each request and answers from a script.
    final class Recorder: HTTPClient, @unchecked Sendable {
        let lock = Mutex<[(String, URL, [String: String], Data?)]>([])
        let answers: @Sendable (String, URL) -> HTTPResponse
        init(_ answers: @escaping @Sendable (String, URL) -> HTTPResponse) { self.answers = answers }
        func get(_ url: URL, headers: [String: String], timeout: TimeInterval) throws -> HTTPResponse {
            try send("GET", url, headers: headers, body: nil, timeout: timeout)
        }
        func post(_ url: URL, headers: [String: String], body: Data, timeout: TimeInterval) throws -> HTTPResponse {
            try send("POST", url, headers: headers, body: body, timeout: timeout)
        }
        func send(_ method: String, _ url: URL, headers: [String: String], body: Data?, timeout: TimeInterval) throws -> HTTPResponse {
            lock.withLock { $0.append((method, url, headers, body)) }
            return answers(method, url)
        }
        var requests: [(String, URL, [String: String], Data?)] { lock.withLock { $0 } }
    }

    @Test func anOldNtfyServerGetsANewMessageForAnUpdateAndALongBodyIsCut() {
        let recorder = Recorder { method, url in
            url.path.hasSuffix("/m1") ? HTTPResponse(status: 404, body: Data(#"{"code":40401,"http":404,"error":"page not found"}"#.utf8))
                : HTTPResponse(status: 200, body: Data(#"{"id":"m2","event":"message"}"#.utf8))
        }
        let sender = ChannelSender(client: recorder, environment: [:])
        let channel = Channel.ntfy(.init(server: "http://127.0.0.1:9", topic: "t", authorization: nil, priority: nil, tags: [], click: nil))
        let long = AlertMessage(id: .test(0), title: "Title", body: String(repeating: "a", count: 5_000))
        let receipt = sender.perform(.update(long, handle: "m1"), on: channel)
        #expect(receipt == AlertReceipt(result: .delivered, handle: "m2"))
        #expect(recorder.requests.map { "\($0.0) \($0.1.path)" } == ["POST /t/m1", "POST /t"])
        #expect(recorder.requests.last?.3?.count == 4_096)
        // Pushover cannot clear: said so, not tried.
        let pushover = Channel.pushover(.init(user: "u", token: "t", devices: [], priority: nil, sound: nil, retry: 900, expire: 3_600))
        #expect(sender.perform(.clear(handle: "r"), on: pushover).result == .failed(.unsupported("Pushover cannot clear a message")))
        #expect(recorder.requests.count == 2)
    }

    /// One rule on every channel: a critical alert goes out at least at the channel's high level,
    /// whatever lower priority its URL gives (Pushover 1, Gotify 8, ntfy 5).
    @Test func aCriticalAlertIsNeverQuietWhateverTheURLSays() throws {
        let recorder = Recorder { _, _ in HTTPResponse(status: 200, body: Data(#"{"status":1,"request":"r","id":1}"#.utf8)) }
        let sender = ChannelSender(client: recorder, environment: [:])
        var critical = AlertMessage(id: .test(0), title: "Route 1 is running +20 min", body: "b")
        critical.urgency = "critical"
        for url in ["pover://u@t?priority=-1", "gotify://127.0.0.1:9/tok?priority=low", "ntfy://127.0.0.1:9/t?priority=min"] {
            _ = sender.perform(.send(critical), on: try Channel(url: url))
        }
        let sent = recorder.requests.map { String(decoding: $0.3 ?? Data(), as: UTF8.self) + " " + ($0.2["Priority"] ?? "") }
        #expect(sent.count == 3 && sent[0].contains("priority=1") && sent[1].contains(#""priority":8"#) && sent[2].hasSuffix(" 5"), "\(sent)")
    }
}
