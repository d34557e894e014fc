@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore
import Foundation
import TestThreads
import Testing

@Suite(.ownThreads) struct SettingTests {
    /// A value each setting takes, and one it refuses.
    static func sample(_ setting: Setting) -> (good: String, bad: String) {
        switch setting {
        case .source: ("https://example.com/feed.json", " ")
        case .accessCode: ("code-1234", "two\nlines")
        case .timeZone: ("Europe/London", "Mars/Olympus")
        case .grace: ("15m", "25h")
        case .quietHours: ("22:00-06:00", "22:00")
        case .dailyCap: ("30", "0")
        case .providerKey: ("key-5678", "two words")
        case .lead, .minInterval: ("30m", "90s")
        case .planRequests: ("off", "sometimes")
        case .budget: ("500", "-1")
        case .staleAfter: ("2h", "8d")
        case .alertLifetime: ("90m", "0m")
        case .followThreshold: ("10m", "3h")
        case .healthNotify: ("phone,desk", "phone desk")
        case .historyDays: ("90", "6")
        case .typicalWeeks: ("12", "53")
        case .contact: ("me@example.org", "me (at) example")
        case .geocoderURL, .providerURL: ("http://127.0.0.1:8080", "ftp://example.org")
        case .freeFlowMargin: ("1.5", "4")
        case .units: ("km", "feet")
        }
    }

    @Test func everySettingIsFoundByItsNameAndNamesAreUnique() {
        #expect(Set(Setting.all.map(\.name)).count == Setting.all.count)
        for setting in Setting.all { #expect(Setting(name: setting.name) == setting) }
        #expect(Setting(name: "acces-code") == nil && Setting(name: "budget.bing") == nil && Setting(name: "") == nil)
    }

    @Test func aValueSetAndClearedLeavesTheConfigurationAsItWas() throws {
        for setting in Setting.all {
            let change = try setting.parse(Self.sample(setting).good)
            #expect(change.setting == setting)
            let directory = TemporaryDirectory()
            let store = try Store(directory: directory.path)
            let commute = Commute(store: store, now: Date(timeIntervalSince1970: 1_762_300_800), timeZone: .utc)
            try commute.settings.change(change)
            #expect(try store.configuration() != .empty, "\(setting.name) changed nothing")
            try commute.settings.clear(setting)
            #expect(try store.configuration() == .empty, "\(setting.name) left something behind")
        }
    }

    @Test func aRefusedValueSaysHowToWriteOneAndNeverRepeatsASecret() {
        for setting in Setting.all {
            let bad = Self.sample(setting).bad
            #expect(throws: SettingError.self) { try setting.parse(bad) }
            do {
                _ = try setting.parse(bad)
            } catch {
                let message = error.description
                #expect(message.contains(setting.form) || message.contains("is empty"), "\(message)")
                if setting.isSecret { #expect(!message.contains(bad), "\(message)") }
            }
        }
        #expect(throws: SettingError.self) { try Setting.grace.parse("") }
    }

    @Test func durationsAreBoundedAndNeverOverflow() {
        #expect(ScheduleParsing.duration("10m") == 600 && ScheduleParsing.duration("90s") == 90 && ScheduleParsing.duration("2h") == 7_200)
        #expect(ScheduleParsing.duration("15") == 900 && ScheduleParsing.duration(" 5min ") == 300)
        for text in ["", "m", "1.5h", "-5m", "9999999999h", "10 m", "10d"] { #expect(ScheduleParsing.duration(text) == nil, "\(text)") }
    }
}

