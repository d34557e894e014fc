import Foundation
import TestThreads
import Testing

/// Notifier URLs mean what Apprise means: each form below, taken from Apprise's plugin sources and
/// wiki, is sent by `notify test` to a loopback recorder and by Apprise itself (PyPI `apprise`,
/// its requests intercepted before they leave), and the two requests must agree on what they mean:
/// the endpoint, the method, where the credentials go, priority, tags, thread, chat, title and
/// message (`Tests/Support/apprise_compare.py` reads each request's way of carrying them).
@Suite(.ownThreads) struct AppriseOracleTests {
    /// `HOST` is the recorder; Telegram's, Pushover's, Discord's and Slack's APIs are the recorder
    /// too (`TRAVELTIMES_TELEGRAM_URL` and the like).
    static let forms = [
        "ntfy://HOST/commute",
        "ntfy://alice:secret@HOST/commute",
        "ntfy://alice:tk_secret@HOST/commute?auth=token",
        "ntfy://tk_secret@HOST/commute",
        "ntfy://HOST/commute?token=tk_secret",
        "ntfy://HOST/commute?priority=emergency",
        "ntfy://HOST/commute?priority=moderate",
        "ntfy://HOST/commute?priority=max",
        "ntfy://HOST/commute?priority=2",
        "ntfy://HOST/commute?xtags=car,warning",
        "ntfy://HOST/commute?tags=car",
        "ntfy://HOST/commute?avatar_url=https://example.com/car.png",
        "gotify://HOST/apptoken",
        "gotify://HOST/apptoken?priority=high",
        "gotify://HOST/apptoken?priority=max",
        "gotify://HOST/apptoken?priority=7",
        "gotify://HOST/apptoken?format=markdown",
        "tgram://123456:ABCdef/42",
        "tgram://bot123456:ABCdef/42",
        "tgram://123456:ABCdef/42:99",
        "tgram://123456:ABCdef/42?topic=7",
        "tgram://123456:ABCdef/42?silent=yes",
        "matrix://goodtoken@HOST/#commute",
        "matrix://goodtoken@HOST/#commute?msgtype=notice",
        "matrix://goodtoken@HOST/#room1/#room2",
        "matrix://goodtoken@HOST/!abc:example.org",
        "pover://userkey@apptoken",
        "pover://userkey@apptoken/phone",
        "pover://userkey@apptoken/phone?to=tablet",
        "pover://userkey@apptoken/#family",
        "pover://userkey@apptoken?priority=high",
        "pover://userkey@apptoken?priority=emergency&interval=60&expire=600",
        "pover://userkey@apptoken?priority=-1",
        "discord://111/goodtoken",
        "discord://bot@111/goodtoken",
        "discord://111/goodtoken?thread=555",
        "discord://111/goodtoken?tts=yes",
        "https://discord.com/api/webhooks/111/goodtoken",
        "https://hooks.slack.com/services/T1/B1/C1",
        "slack://T1/B1/C1",
        "slack://bot@T1/B1/C1/#commute",
        "json://HOST/hook",
        "json://user:secret@HOST/hook",
        "json://HOST/hook?+X-Api-Key=abc&-source=tt&:note=hello&method=PUT",
        "json://HOST/hook?:type=&:message=text",
        // Forms the first table did not use, from Apprise's templates and arguments.
        "ntfy://HOST/commute?priority=urgent",
        "ntfy://HOST/commute?priority=min",
        "ntfy://HOST/commute?priority=low",
        "ntfy://HOST/commute?priority=5",
        "ntfy://alice:secret@HOST/commute?auth=basic",
        "ntfy://HOST/commute?click=https://example.com/map",
        "ntfy://HOST/commute?cto=5&rto=10",
        "ntfy://HOST/commute?verify=yes",
        "ntfy://HOST/commute?emojis=no",
        "ntfy://HOST/commute?format=text",
        "gotify://HOST/sub/apptoken",
        "gotify://HOST/apptoken?priority=low",
        "gotify://HOST/apptoken?priority=0",
        "pover://userkey@apptoken/phone/#family",
        "pover://userkey@apptoken/#family/#friends",
        "pover://userkey@apptoken?sound=siren",
        "pover://userkey@apptoken?url=https://example.com/map&url_title=Map",
        "pover://userkey@apptoken?priority=low",
        "tgram://123456:ABCdef/42/43",
        "tgram://123456:ABCdef/?to=42",
        "tgram://123456:ABCdef/42?thread=99",
        "tgram://123456:ABCdef/42?format=html",
        "matrix://goodtoken@HOST/?to=#commute",
        "matrix://goodtoken@HOST/#commute:example.org",
        "matrix://goodtoken@HOST/#commute?format=text",
        "discord://111/goodtoken?avatar=no",
        "discord://111/goodtoken?footer=no",
        "discord://111/goodtoken?format=text",
        "slack://T1/B1/C1?footer=no",
        "slack://T1/B1/C1/#general",
        "json://HOST/path/hook",
        "json://HOST/hook?method=POST",
        "json://HOST/hook?-a=1&-b=2",
        "json://HOST/hook?tz=UTC",
    ]

    @Test(ExternalTool.apprise.needed) func everyFormSendsWhatAppriseSends() throws {
        let recorder = try SteeredServer(script: "recorder_server.py")
        let sandbox = try Sandbox().prepared()
        sandbox.environment["TRAVELTIMES_TELEGRAM_URL"] = recorder.base
        for service in ["PUSHOVER", "DISCORD", "SLACK"] { sandbox.environment["TRAVELTIMES_\(service)_URL"] = recorder.base }
        let host = String(recorder.base.dropFirst("http://".count))
        let compare = Paths.root.appendingPathComponent("Tests/Support/apprise_compare.py").path
        let path = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        let title = "Test: Commute at 4:00 PM (Tue)"
        let body = "Everett-Seattle: 34 min (-11 min, CLEAR)\nSeattle-Bellevue via 90: 14 min (-1 min, CLEAR)\nSeattle-Everett: 48 min (-9 min, CLEAR)"
        var differences: [String] = []
        var sent: [[String: Any]] = []
        for form in Self.forms {
            let url = form.replacingOccurrences(of: "HOST", with: host)
            let added = try sandbox.run(["notify", "add", url])
            guard added.status == 0 else {
                differences.append("\(form): refused: \(added.stderr)")
                continue
            }
            let start = recorder.entries().count
            let test = try sandbox.run(["notify", "test", "--now", Paths.capturedAt])
            if test.status != 0 { differences.append("\(form): notify test: \(test)") }
            sent.append(["form": form, "url": url, "start": start, "end": recorder.entries().count])
            try sandbox.ok(["notify", "remove", "1", "--yes"])
            // The next form's test is a first notification too, not a revision of this one.
            try sandbox.ok(["delivered", "clear", "--all", "--yes"])
        }
        // Apprise is loaded once, for every form: what it sends, beside what traveltimes sent.
        let forms = sandbox.home + "-forms.json"
        try Sandbox.write(forms, try JSONSerialization.data(withJSONObject: sent))
        defer { try? FileManager.default.removeItem(atPath: forms) }
        let compared = try execute(["/usr/bin/env", "python3", compare, "batch", forms, title, body, recorder.log], environment: path)
        #expect(compared.status == 0, "\(compared)")
        let rows = compared.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String] }
        #expect(rows.count == sent.count, "\(compared)")
        for row in rows where row.count == 3 && row[1] != row[2] {
            differences.append("\(row[0])\n  Apprise:     \(row[1])\n  traveltimes: \(row[2])")
        }
        #expect(differences == [], "\(differences.joined(separator: "\n"))")
    }

    /// Where ntfy's own documentation shows Apprise wrong, the service is followed: a user with no
    /// password is refused (Apprise sends the word "None" as the password).
    @Test(ExternalTool.apprise.needed) func aUserWithNoPasswordIsRefusedWhereAppriseSendsNone() throws {
        let compare = Paths.root.appendingPathComponent("Tests/Support/apprise_compare.py").path
        let theirs = try execute(
            ["/usr/bin/env", "python3", compare, "apprise", "ntfy://alice@127.0.0.1:9/commute", "T", "B"],
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]).stdout
        #expect(theirs.contains(#""authorization": "Basic YWxpY2U6Tm9uZQ==""#), "\(theirs)")  // alice:None
        let ours = try Sandbox().run(["notify", "add", "ntfy://alice@127.0.0.1:9/commute"])
        #expect(ours.status == 64 && ours.stderr == """
            traveltimes: Cannot add that URL: ntfy credentials are user:password@ or an access token (tk_…@, or ?auth=token). See 'traveltimes notify add --help'.

            """)
    }
}
