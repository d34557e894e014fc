import CommuteCore
import FoundationEssentials

extension Commands {
    enum ConfigSetCommand {
        static let command = Command(
            name: "config set",
            summary: "Set source, access-code, timezone, grace, quiet-hours, daily-cap, provider keys, lead, min-interval, plan-requests, budgets, stale-after, alert-lifetime or health-notify",
            arguments: "KEY VALUE",
            positionals: 2...2,
            argumentValues: [.configKey],
            options: [Options.now],
            discussion: settingsHelp
        ) { invocation in
            let setting = try setting(invocation.arguments.positionals[0], invocation)
            var value = invocation.arguments.positionals[1]
            // A secret given as `-` is read from standard input: out of argv and shell history.
            if value == "-", setting.isSecret {
                guard let line = StandardInput.line(maximumBytes: 4_096) else {
                    throw invocation.usage(
                        "No \(setting.name) on standard input (one line, at most 4 KiB): `printf '%s\\n' \"$KEY\" | traveltimes config set \(setting.name) -`.")
                }
                value = line
            }
            let change: SettingChange
            do {
                change = try setting.parse(value)
            } catch let error as SettingError {
                throw invocation.usage(error.description)
            }
            try invocation.commute().settings.change(change)
            if setting.replansAlerts {
                try replan(invocation, message: change.confirmation)
            } else {
                invocation.io.out(change.confirmation)
            }
        }

        /// `config set --help`'s discussion: every setting, what it is and how to write it.
        static var settingsHelp: String {
            let width = (Setting.all.map(\.name.count).max() ?? 0) + 2
            let indent = String(repeating: " ", count: width + 2)
            let lines = Setting.all.map { setting in
                "  " + setting.name.padded(to: width) + setting.meaning + "\n"
                    + indent + "VALUE: " + setting.form + (setting.isSecret ? "; a secret" : "")
            }
            return """
                KEY is one of:
                \(lines.joined(separator: "\n"))
                A secret is kept only in config.json (mode 0600) and never shown; a VALUE of - reads it
                from standard input instead, so it stays out of the process list and the shell's
                history. TRAVELTIMES_TZ overrides the saved timezone for one command.
                """
        }
    }
}
