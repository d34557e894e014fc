@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

/// `status --json`, `refresh --json` and `config show --json`, compared whole: every key is there,
/// null when it has no value, and no secret is in any of them.
@Suite(.ownThreads) struct MachineReadableTests {
    func object(_ outcome: Outcome) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? NSDictionary, "\(outcome)")
    }

    @Test func statusJSONHasEveryPartAndNamesWhatCannotBeRead() throws {
        let sandbox = try Sandbox().prepared()
        let standIns = try StandInPrograms(sandbox)
        defer { withExtendedLifetime(standIns) {} }
        try sandbox.ok(["install", "cron"])
        try sandbox.ok(["tick", "--now", "2025-11-05T07:00:00-08:00"])
        let units = sandbox.environment["HOME", default: ""] + "/.config/systemd/user"
        let status = try object(try sandbox.ok(["status", "--json", "--now", "2025-11-05T07:01:00-08:00"]))
        let expected: NSDictionary = [
            "store": sandbox.home,
            "timeZone": ["name": "America/Los_Angeles", "from": "saved", "saved": "America/Los_Angeles"],
            "source": NSNull(),
            "routes": [
                "count": 163, "withoutData": 3, "updatedAt": "2025-11-04T16:00:00-08:00", "fetchedAt": "2025-11-04T16:00:00-08:00",
                "from": Paths.fixture,
                "sources": [["source": "wsdot", "updatedAt": "2025-11-04T16:00:00-08:00", "stale": true]],
            ],
            "lastRefresh": ["at": "2025-11-04T16:00:00-08:00", "result": "ok", "lastSuccessAt": "2025-11-04T16:00:00-08:00", "failuresInARow": 0],
            "favorites": 3,
            "schedules": ["count": 1, "enabled": 1],
            "pending": ["scheduled": 5, "deferred": 0, "cap": 64, "plannedAt": "2025-11-05T07:00:00-08:00"],
            "lastAlert": ["at": "2025-11-05T07:00:00-08:00", "outcome": "delivered", "lastDay": ["delivered": 1]],
            "installed": [
                "unitDirectory": units, "units": [String](), "enabledTimers": [String](), "cronBlock": true,
                "summary": "the traveltimes block in your crontab",
            ],
            "customRoutes": 0,
            "providers": NSNull(),
            "requestCosts": [Any](),
            "transit": [Any](),
            "pauses": [Any](),
            "errors": [String](),
        ]
        #expect(status == expected)

        // An unreadable file: its part is null, the reason is in errors, and the exit status is its error's.
        try Sandbox.write(sandbox.path("schedules.json"), Data("{\"version\": 99}".utf8))
        let broken = try sandbox.run(["status", "--json", "--now", "2025-11-05T07:01:00-08:00"])
        #expect(broken.status == 65)
        let partial = try object(broken)
        #expect(partial["schedules"] is NSNull && partial["favorites"] as? Int == 3)
        let errors = try #require(partial["errors"] as? [String])
        #expect(errors.count == 1 && Whole.normal(errors[0]) == "$TMP/schedules.json: unknown version 99 (this traveltimes reads version 1); the file was left untouched — fix or move it aside, then try again")
        #expect(Whole.normal(broken.stderr) == "traveltimes: $TMP/schedules.json: unknown version 99 (this traveltimes reads version 1); nothing was changed (the file was left untouched) — fix or move it aside, then try again\n")
    }

    @Test func refreshJSONSaysWhatWasFetchedSavedAndRescheduled() throws {
        let sandbox = try Sandbox().prepared()
        try sandbox.ok(["watch", "add", "96", "--over", "10"])
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", "2025-11-04T16:10:00-08:00"])
        // Route 1 holds an impossible time, route 4 has gone, and 96 is now 30 minutes over.
        let feed = try sandbox.feed("json-refresh") { routes in
            routes[1]?["CurrentTime"] = 5_000
            routes[4] = nil
            routes[96]?["CurrentTime"] = 45
        }
        let outcome = try sandbox.ok(["refresh", "--json", "--source", feed, "--now", "2025-11-04T16:15:00-08:00"])
        let expected: NSDictionary = [
            "source": feed,
            "refreshedAt": "2025-11-04T16:15:00-08:00",
            "notModified": false,
            "feedError": NSNull(),
            "custom": [Any](),
            "transit": [Any](),
            "providers": [
                ["provider": "tomtom", "requestsToday": 0, "budget": 2_500, "routes": 0],
                ["provider": "here", "requestsToday": 0, "budget": 1_000, "routes": 0],
                ["provider": "google", "requestsToday": 0, "budget": 160, "routes": 0],
                ["provider": "transitous", "requestsToday": 0, "budget": 200, "routes": 0],
                ["provider": "osrm", "requestsToday": 0, "budget": 100, "routes": 0],
                ["provider": "valhalla", "requestsToday": 0, "budget": 100, "routes": 0],
            ],
            "routes": [
                "saved": 161, "withoutData": 3,
                "leftOut": [["id": "1", "reason": "its current time, 5000 min, is over a day: not a travel time"]],
            ],
            "missingFavorites": ["1", "4"],
            "rescheduled": ["requested": 5, "scheduled": 5, "deferred": 0, "cap": 64],
            "warnings": [
                ["message": "route #89 (ID 1) was left out: its current time, 5000 min, is over a day: not a travel time", "isRepeat": false],
                ["message": "favorite 1 is not in this feed: it stays a favorite and shows as unavailable", "isRepeat": false],
                ["message": "favorite 4 is not in this feed: it stays a favorite and shows as unavailable", "isRepeat": false],
            ],
            "watchAlerts": [
                ["routeID": "96", "direction": "over", "title": "Seattle-Bellevue via 90 is running +30 min (usually 15)", "problem": NSNull()],
            ],
            "watchProblem": NSNull(),
        ]
        #expect(try object(outcome) == expected)
        // The stdout notifier's alert went to stderr: stdout is the JSON's alone.
        #expect(outcome.stderr == """
            traveltimes: warning: route #89 (ID 1) was left out: its current time, 5000 min, is over a day: not a travel time\u{A}traveltimes: warning: favorite 1 is not in this feed: it stays a favorite and shows as unavailable\u{A}traveltimes: warning: favorite 4 is not in this feed: it stays a favorite and shows as unavailable\u{A}Seattle-Bellevue via 90 is running +30 min (usually 15)\u{A}Seattle-Bellevue via 90: 45 min (+30 min, CONGESTED)\u{A}\u{A}
            """)
        // Unchanged: the same again says so, and the warnings are repeats.
        let again = try object(try sandbox.ok(["refresh", "--json", "--source", feed, "--now", "2025-11-04T16:30:00-08:00"]))
        let warnings = try #require(again["warnings"] as? [[String: Any]])
        #expect(warnings.count == 3 && warnings.allSatisfy { $0["isRepeat"] as? Bool == true })
        #expect((again["watchAlerts"] as? [Any])?.isEmpty == true)
    }

    @Test func configJSONHasEveryKeyAndNoSecret() throws {
        let sandbox = Sandbox()
        let empty = try object(try sandbox.ok(["config", "show", "--json"]))
        #expect(empty == [
            "source": NSNull(), "accessCode": NSNull(), "accessCodeFrom": NSNull(), "timezone": NSNull(), "graceSeconds": 600,
            "quietHours": NSNull(), "dailyCap": 20, "notifiers": [Any](), "watches": [Any](),
            "providerKeys": ["tomtom": NSNull(), "here": NSNull(), "google": NSNull()],
            "providerKeysFrom": ["tomtom": NSNull(), "here": NSNull(), "google": NSNull()],
            "leadMinutes": 60, "minIntervalMinutes": 10, "planRequests": true, "budgets": ["tomtom": 2_500, "here": 1_000, "google": 160, "transitous": 200, "osrm": 100, "valhalla": 100],
            "staleAfterMinutes": 60, "alertLifetimeMinutes": 120, "followThresholdMinutes": 5, "healthNotify": NSNull(), "historyDays": 400, "typicalWeeks": 8,
            "contact": NSNull(), "transitousURL": "https://api.transitous.org", "geocoderURL": "https://nominatim.openstreetmap.org",
            "osrmURL": "https://router.project-osrm.org", "valhallaURL": "https://valhalla1.openstreetmap.de", "freeFlowMargin": 1.25, "units": "mi",
            "providerURLs": ["tomtom": "https://api.tomtom.com", "here": "https://router.hereapi.com", "google": "https://routes.googleapis.com"],
        ] as NSDictionary)

        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["config", "set", "source", "https://user:PASSWORDSECRET@wsdot.example/feed?AccessCode=QUERYSECRET"])
        try sandbox.ok(["config", "set", "access-code", "CODESECRET"])
        try sandbox.ok(["config", "set", "timezone", "Europe/London"])
        try sandbox.ok(["config", "set", "grace", "30m"])
        try sandbox.ok(["config", "set", "quiet-hours", "22:00-06:00"])
        try sandbox.ok(["config", "set", "daily-cap", "5"])
        try sandbox.ok(["notify", "add", "webhook", "https://ntfy.example/PATHSECRET", "--header", "Authorization: Bearer HEADERSECRET", "--click", "https://maps.example/"])
        try sandbox.ok(["notify", "add", "exec", "true", "{title}"])
        try sandbox.ok(["watch", "add", "96", "--over", "10"])
        try sandbox.ok(["config", "set", "here-key", "HEREKEYSECRET"])
        try sandbox.ok(["config", "set", "lead", "90m"])
        try sandbox.ok(["config", "set", "min-interval", "15"])
        try sandbox.ok(["config", "set", "plan-requests", "off"])
        try sandbox.ok(["config", "set", "budget.google", "100"])
        try sandbox.ok(["config", "set", "stale-after", "2h"])
        try sandbox.ok(["config", "set", "alert-lifetime", "90m"])
        try sandbox.ok(["config", "set", "follow-threshold", "off"])
        try sandbox.ok(["notify", "add", "ntfys://tk_TOKENSECRET@ntfy.example/TOPICSECRET", "--name", "phone"])
        try sandbox.ok(["config", "set", "health-notify", "phone"])
        try sandbox.ok(["config", "set", "history-days", "off"])
        try sandbox.ok(["config", "set", "typical-weeks", "12"])
        let outcome = try sandbox.ok(["config", "show", "--json"], environment: ["TOMTOM_API_KEY": "ENVKEYSECRET"])
        #expect(!outcome.stdout.contains("SECRET"))
        let full = try object(outcome)
        #expect(full == [
            "source": "https://REDACTED@wsdot.example/feed?AccessCode=REDACTED", "accessCode": "set", "accessCodeFrom": "config",
            "timezone": "Europe/London", "graceSeconds": 1_800, "quietHours": "22:00-06:00", "dailyCap": 5,
            "notifiers": [
                [
                    "id": 1, "name": NSNull(), "kind": "webhook", "summary": "webhook https://ntfy.example/… (ntfy, header Authorization, click)",
                    "program": NSNull(), "arguments": NSNull(), "url": "https://ntfy.example/…", "format": "ntfy",
                    "headers": ["Authorization": "set"], "click": "https://maps.example/",
                ],
                [
                    "id": 2, "name": NSNull(), "kind": "exec", "summary": "exec true {title}", "program": "true", "arguments": ["{title}"],
                    "url": NSNull(), "format": NSNull(), "headers": NSNull(), "click": NSNull(),
                ],
                [
                    "id": 3, "name": "phone", "kind": "channel", "summary": "phone: ntfy https://ntfy.example/… (with credentials)",
                    "program": NSNull(), "arguments": NSNull(), "url": "ntfys:…", "format": NSNull(), "headers": NSNull(), "click": NSNull(),
                ],
            ],
            "watches": [["routeID": "96", "overMinutes": 10, "overUsual": false]],
            "providerKeys": ["tomtom": "set", "here": "set", "google": NSNull()],
            "providerKeysFrom": ["tomtom": "environment", "here": "config", "google": NSNull()],
            "leadMinutes": 90, "minIntervalMinutes": 15, "planRequests": false, "budgets": ["tomtom": 2_500, "here": 1_000, "google": 100, "transitous": 200, "osrm": 100, "valhalla": 100],
            "staleAfterMinutes": 120, "alertLifetimeMinutes": 90, "followThresholdMinutes": 0, "healthNotify": ["phone"], "historyDays": 0, "typicalWeeks": 12,
            "contact": NSNull(), "transitousURL": "https://api.transitous.org", "geocoderURL": "https://nominatim.openstreetmap.org",
            "osrmURL": "https://router.project-osrm.org", "valhallaURL": "https://valhalla1.openstreetmap.de", "freeFlowMargin": 1.25, "units": "mi",
            "providerURLs": ["tomtom": "https://api.tomtom.com", "here": "https://router.hereapi.com", "google": "https://routes.googleapis.com"],
        ] as NSDictionary)
        let fromShell = try object(try sandbox.ok(["config", "show", "--json"], environment: ["WSDOT_ACCESS_CODE": "SHELLSECRET"]))
        #expect(fromShell["accessCode"] as? String == "set" && fromShell["accessCodeFrom"] as? String == "environment")
    }
}
