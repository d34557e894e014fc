import CommuteCore
import Foundation

extension Commands {
    static let configKeys = ["source", "access-code", "grace", "quiet-hours", "daily-cap"]

    static let configShow = Command(
        name: "config show",
        summary: "Show the configuration (the access code is never shown)",
        options: [Options.json]
    ) { invocation in
        let configuration = try invocation.store().configuration()
        let secrets = configuration.accessCode.map { [$0] } ?? []
        let source = configuration.source.map { FeedSource.redact(FeedSource.display($0), secrets: secrets) }
        let environmentCode = !(invocation.environment["WSDOT_ACCESS_CODE"] ?? "").isEmpty
        let codeState = environmentCode ? "set (from WSDOT_ACCESS_CODE)" : configuration.accessCode == nil ? "not set" : "set"
        if invocation.wantsJSON {
            try invocation.printJSON(["source": source, "accessCode": configuration.accessCode == nil && !environmentCode ? nil : "set"])
            return
        }
        invocation.io.out("source:       \(source ?? "not set")")
        invocation.io.out("access-code:  \(codeState)")
        invocation.io.out("grace:        \(TimeFormatting.age(TimeInterval(configuration.graceSeconds ?? Configuration.defaultGrace)))")
        invocation.io.out("notifiers:    \(configuration.effectiveNotifiers.map(\.summary).joined(separator: "; "))")
        invocation.io.out("quiet-hours:  \(configuration.quietHours.map(\.description) ?? "none")")
        invocation.io.out("daily-cap:    \(configuration.standardDailyCap ?? Configuration.defaultStandardDailyCap) scheduled alerts")
    }

    static let configSet = Command(
        name: "config set",
        summary: "Set source, access-code, grace (10m), quiet-hours (22:00-06:00) or daily-cap (20)",
        arguments: "KEY VALUE",
        positionals: 2...2
    ) { invocation in
        let key = invocation.arguments.positionals[0]
        let value = invocation.arguments.positionals[1]
        guard configKeys.contains(key) else { throw unknownKey(key, invocation) }
        guard !value.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw invocation.usage("The value for \(key) is empty; use `traveltimes config unset \(key)` to clear it.")
        }
        if key == "quiet-hours" {
            let window = try QuietHours(value)
            try invocation.store().updateConfiguration { $0.quietHours = window }
            invocation.io.out("quiet hours set to \(window): scheduled alerts in it are held back.")
            return
        }
        if key == "daily-cap" {
            guard let cap = Int(value), (1...1_000).contains(cap) else {
                throw invocation.usage("Invalid daily-cap '\(value)': use a whole number from 1 to 1000.")
            }
            try invocation.store().updateConfiguration { $0.standardDailyCap = cap }
            invocation.io.out("daily cap set to \(cap) scheduled alerts a day.")
            return
        }
        if key == "grace" {
            guard let seconds = duration(value), seconds <= 86_400 else {
                throw invocation.usage("Invalid grace '\(value)': use a duration such as 10m, 90s or 1h (at most 24h).")
            }
            try invocation.store().updateConfiguration { $0.graceSeconds = seconds }
            invocation.io.out("grace set to \(TimeFormatting.age(TimeInterval(seconds))).")
            return
        }
        try invocation.store().updateConfiguration { configuration in
            if key == "source" { configuration.source = value } else { configuration.accessCode = value }
        }
        invocation.io.out(key == "source"
            ? "source set to \(FeedSource.redact(FeedSource.display(value)))."
            : "access-code set (stored only in config.json, mode 0600).")
    }

    static let configUnset = Command(
        name: "config unset",
        summary: "Clear source or access-code",
        arguments: "KEY",
        positionals: 1...1
    ) { invocation in
        let key = invocation.arguments.positionals[0]
        guard configKeys.contains(key) else { throw unknownKey(key, invocation) }
        try invocation.store().updateConfiguration { configuration in
            switch key {
            case "source": configuration.source = nil
            case "grace": configuration.graceSeconds = nil
            case "quiet-hours": configuration.quietHours = nil
            case "daily-cap": configuration.standardDailyCap = nil
            default: configuration.accessCode = nil
            }
        }
        invocation.io.out("\(key) cleared.")
    }

    /// `10m`, `90s`, `1h`, or a bare number of minutes; in seconds. Nil for anything else, and for
    /// more digits than any duration needs (no input can overflow).
    static func duration(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(String, Int)] = [("h", 3_600), ("min", 60), ("m", 60), ("s", 1), ("", 60)]
        for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
            let digits = trimmed.dropLast(suffix.count)
            guard (1...9).contains(digits.count), digits.allSatisfy(\.isASCIIDigit), let number = Int(digits) else { continue }
            return number * scale
        }
        return nil
    }

    private static func unknownKey(_ key: String, _ invocation: Invocation) -> UsageError {
        var message = "Unknown setting '\(key)': use \(configKeys.joined(separator: " or "))."
        if let suggestion = Suggestions.closest(to: key, in: configKeys) { message += " Did you mean '\(suggestion)'?" }
        return invocation.usage(message)
    }
}
