import CommuteCore
import FoundationEssentials

extension Commands {
    enum ConfigUnsetCommand {
        static let command = Command(
            name: "config unset",
            summary: "Clear a setting (back to its default): any key config set takes",
            arguments: "KEY",
            positionals: 1...1,
            argumentValues: [.configKey],
            options: [Options.yes, Options.now],
            discussion: "Asks first on a terminal; otherwise needs --yes."
        ) { invocation in
            let setting = try setting(invocation.arguments.positionals[0], invocation)
            try invocation.confirm("This will clear \(setting.name), back to its default.", question: "Clear it?")
            try invocation.commute().settings.clear(setting)
            if setting.replansAlerts {
                try replan(invocation, message: "timezone cleared (it is saved again with the next schedule)")
            } else {
                invocation.io.out("\(setting.name) cleared.")
            }
        }
    }
}
