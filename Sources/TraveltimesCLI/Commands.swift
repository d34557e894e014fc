/// Every command, in the order `--help` lists them.
enum Commands {
    static let all: [Command] = [
        refresh, routes, route, routeAdd, routeEdit, routeRemove, transitAdd, transitList, transitStops, transitRemove, brief,
        favoritesList, favoritesAdd, favoritesRemove, favoritesMove,
        scheduleAdd, scheduleList, scheduleShow, scheduleEdit, scheduleEnable, scheduleDisable, scheduleRemove,
        groupAdd, groupList, groupEdit, groupRemove, pause, pauseList, pauseRemove, pauseClear,
        pending, tick, test, deliveredList, deliveredClear, notifyAdd, notifyList, notifyRemove, notifyTest,
        watchAdd, watchList, watchRemove, history, historyExport, historyImport, bestTime,
        status, doctor, configShow, configSet, configUnset, installSystemd, installCron, uninstallSystemd, uninstallCron,
        completions, manpage, demo,
    ]

    /// Groups whose bare name runs their listing: `favorites` is `favorites list`.
    static let groups = ["favorites", "schedule", "group", "config", "notify", "delivered", "watch", "install", "uninstall", "transit"]

    /// What each group is for, as its `--help` says first.
    static let groupSummaries: [String: String] = [
        "favorites": "The routes you follow, in your order",
        "schedule": "When alerts go out: at a time, or arrive by one",
        "group": "Named sets of favorites, for brief --group",
        "config": "Settings, kept in config.json",
        "notify": "Where alerts go: ntfy, Telegram, Pushover, Gotify, Matrix, Discord, Slack, email, the desktop, a program",
        "watch": "Delay watches: an alert when a route's delay passes a line, and when it clears",
        "install": "Run refresh and tick unattended: systemd user timers or a crontab block",
        "uninstall": "Remove what install wrote",
        "transit": "Transit agencies' GTFS feeds, their stops and their live data",
    ]

    /// The help of a group that is not itself a command (`transit --help`): every subcommand with
    /// its summary, from the command table. Nil for any other word.
    static func groupHelp(_ group: String) -> String? {
        // A group that is a command too (`delivered`) has that command's help, which lists the rest.
        guard groups.contains(group), !all.contains(where: { $0.name == group }), let summary = groupSummaries[group] else { return nil }
        let names = all.map(\.name).filter { $0.hasPrefix(group + " ") }
        guard !names.isEmpty else { return nil }
        let bare = group == "config" ? "config show" : "\(group) list"
        var lines = ["Usage: traveltimes \(group) COMMAND [options]", "", summary, "", "Commands:"] + table(of: names) + [""]
        if names.contains(bare) { lines.append("'traveltimes \(group)' alone runs '\(bare)'.") }
        lines.append("See 'traveltimes \(group) COMMAND --help' for one of them.")
        return lines.joined(separator: "\n")
    }

    /// `  add     Add a transit feed …`: commands by name with their summaries.
    static func table(of names: [String]) -> [String] {
        var table = Table([.left, .left])
        for name in names {
            guard let command = all.first(where: { $0.name == name }) else { continue }
            table.add(["  " + name, command.summary])
        }
        return table.render()
    }

    /// Commands that run by their own name and also have subcommands.
    static let hybrids = ["route": routeSubcommands, "pause": pauseSubcommands, "history": historySubcommands]

    /// Finds the command the words name, and the words left for its options.
    /// Both spellings are accepted wherever a word names something: `favourites add`,
    /// `routes --favourites`. Output says `favorites`, as the commands, files and JSON do. Only
    /// the command word and option names are respelled, never a value.
    static func spelledOneWay(_ words: [String]) -> [String] {
        words.enumerated().map { index, word in
            if index == 0, word == "favourites" { return "favorites" }
            if word == "--favourites" { return "--favorites" }
            return word
        }
    }

    static func resolve(_ words: [String]) -> Result<(Command, [String]), UsageError> {
        guard let first = words.first else { return .failure(UsageError(message: "No command.", command: "")) }
        let rest = Array(words.dropFirst())
        if groups.contains(first) {
            let sub = rest.first.flatMap { $0.hasPrefix("-") ? nil : $0 }
            var name = "\(first) \(sub ?? (first == "config" ? "show" : "list"))"
            if name == "delivered list" { name = "delivered" }
            if let command = all.first(where: { $0.name == name }) {
                return .success((command, sub == nil ? rest : Array(rest.dropFirst())))
            }
            let subs = all.filter { $0.name.hasPrefix(first + " ") }.map { String($0.name.dropFirst(first.count + 1)) }
            guard let sub else {
                return .failure(UsageError(message: "'\(first)' needs one of: \(subs.joined(separator: ", ")).", command: ""))
            }
            var message = "Unknown command '\(first) \(sub)'."
            if let suggestion = Suggestions.closest(to: sub, in: subs) {
                message += " Did you mean '\(first) \(suggestion)'?"
            }
            message += " '\(first)' has: \(subs.joined(separator: ", "))."
            return .failure(UsageError(message: message, command: ""))
        }
        // `route ID` shows a route and `pause --until DATE` adds one; their subcommands are
        // commands of their own (no route ID is one of those words).
        if let subs = hybrids[first], let sub = rest.first, subs.contains(sub),
            let command = all.first(where: { $0.name == "\(first) \(sub)" })
        {
            return .success((command, Array(rest.dropFirst())))
        }
        guard let command = all.first(where: { $0.name == first }) else {
            return .failure(UsageError(message: CLI.unknownCommandMessage(first), command: ""))
        }
        return .success((command, rest))
    }
}
