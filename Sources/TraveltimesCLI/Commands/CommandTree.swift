/// The command tree: every command, and the groups that gather subcommands under a noun. Dispatch,
/// `--help`, group help, the man page and the completions are all read from it: a command added
/// here appears in each of them.
enum CommandTree {
    /// A command, or a group of them.
    enum Node: Sendable {
        case command(Command)
        case group(Group)
    }

    /// `schedule add`, `schedule list`…: subcommands under a noun.
    struct Group: Sendable {
        /// `schedule`.
        var name: String
        /// What the group is for, as its help says first; nil for a group that is a command too.
        var summary: String?
        /// The group's own command, when the noun alone is one: `route ID`, `pause --until DATE`,
        /// `history ROUTE`, `delivered`.
        var own: Command?
        /// With an own command: whether a word that names no subcommand is its argument (`route
        /// 96`) rather than a mistyped subcommand (`delivered clera`).
        var ownTakesOtherWords = false
        /// The subcommand the noun alone runs (`favorites` is `favorites list`); nil when there
        /// is none, or the own command is it.
        var alone: String?
        var commands: [Command]

        /// The subcommands' own words: `add`, `list`.
        var subcommandWords: [String] { commands.map { String($0.name.dropFirst(name.count + 1)) } }
    }

    static let nodes: [Node] = [
        .command(Commands.RefreshCommand.command),
        .command(Commands.RoutesCommand.command),
        .group(Group(
            name: "route", own: Commands.RouteCommand.command, ownTakesOtherWords: true,
            commands: [Commands.RouteAddCommand.command, Commands.RouteEditCommand.command, Commands.RouteRemoveCommand.command])),
        .group(Group(
            name: "place", summary: "Places by name (home, office) for --from and --to: typed in, or found once by a search", alone: "list",
            commands: [Commands.PlaceAddCommand.command, Commands.PlaceListCommand.command, Commands.PlaceRemoveCommand.command])),
        .group(Group(
            name: "transit", summary: "Transit agencies' GTFS feeds, their stops and their live data", alone: "list",
            commands: [Commands.TransitAddCommand.command, Commands.TransitListCommand.command, Commands.TransitStopsCommand.command, Commands.TransitRemoveCommand.command])),
        .group(Group(
            name: "calendar", summary: "Calendars: leave in time for their events, or rest on their days off", alone: "list",
            commands: [Commands.CalendarAddCommand.command, Commands.CalendarListCommand.command, Commands.CalendarEventsCommand.command, Commands.CalendarRemoveCommand.command])),
        .group(Group(
            name: "export", summary: "Publish the commute to Home Assistant, an MQTT broker, an iCalendar file or Prometheus", alone: "list",
            commands: [Commands.ExportAddCommand.command, Commands.ExportListCommand.command, Commands.ExportRemoveCommand.command])),
        .command(Commands.BriefCommand.command),
        .group(Group(
            name: "favorites", summary: "The routes you follow, in your order", alone: "list",
            commands: [Commands.FavoritesListCommand.command, Commands.FavoritesAddCommand.command, Commands.FavoritesRemoveCommand.command, Commands.FavoritesMoveCommand.command])),
        .group(Group(
            name: "schedule", summary: "When alerts go out: at a time, or arrive by one", alone: "list",
            commands: [
                Commands.ScheduleAddCommand.command, Commands.ScheduleListCommand.command, Commands.ScheduleShowCommand.command, Commands.ScheduleEditCommand.command,
                Commands.ScheduleEnableCommand.command, Commands.ScheduleDisableCommand.command, Commands.ScheduleRemoveCommand.command,
            ])),
        .group(Group(
            name: "group", summary: "Named sets of favorites, for brief --group", alone: "list",
            commands: [Commands.GroupAddCommand.command, Commands.GroupListCommand.command, Commands.GroupEditCommand.command, Commands.GroupRemoveCommand.command])),
        .group(Group(
            name: "pause", own: Commands.PauseCommand.command, ownTakesOtherWords: true,
            commands: [Commands.PauseListCommand.command, Commands.PauseRemoveCommand.command, Commands.PauseClearCommand.command])),
        .command(Commands.PendingCommand.command),
        .command(Commands.TickCommand.command),
        .command(Commands.TestCommand.command),
        .group(Group(name: "delivered", own: Commands.DeliveredCommand.command, commands: [Commands.DeliveredClearCommand.command])),
        .group(Group(
            name: "notify",
            summary: "Where alerts go: ntfy, Telegram, Pushover, Gotify, Matrix, Discord, Slack, email, the desktop, a program",
            alone: "list",
            commands: [Commands.NotifyAddCommand.command, Commands.NotifyListCommand.command, Commands.NotifyRemoveCommand.command, Commands.NotifyTestCommand.command])),
        .group(Group(
            name: "watch", summary: "Delay watches: an alert when a route's delay passes a line, and when it clears", alone: "list",
            commands: [Commands.WatchAddCommand.command, Commands.WatchListCommand.command, Commands.WatchRemoveCommand.command])),
        .group(Group(
            name: "commute", summary: "Commutes with several ways (drive, bus), for compare and reliability", alone: "list",
            commands: [Commands.CommuteAddCommand.command, Commands.CommuteListCommand.command, Commands.CommuteRemoveCommand.command])),
        .command(Commands.CompareCommand.command),
        .command(Commands.ReliabilityCommand.command),
        .group(Group(
            name: "history", own: Commands.HistoryCommand.command, ownTakesOtherWords: true,
            commands: [Commands.HistoryExportCommand.command, Commands.HistoryImportCommand.command])),
        .command(Commands.BestTimeCommand.command),
        .command(Commands.StatusCommand.command),
        .command(Commands.DoctorCommand.command),
        .group(Group(
            name: "config", summary: "Settings, kept in config.json", alone: "show",
            commands: [Commands.ConfigShowCommand.command, Commands.ConfigSetCommand.command, Commands.ConfigUnsetCommand.command])),
        .group(Group(
            name: "install", summary: "Run refresh and tick unattended: systemd user timers or a crontab block",
            commands: [Commands.InstallSystemdCommand.command, Commands.InstallCronCommand.command])),
        .group(Group(
            name: "uninstall", summary: "Remove what install wrote",
            commands: [Commands.UninstallSystemdCommand.command, Commands.UninstallCronCommand.command])),
        .command(Commands.CompletionsCommand.command),
        .command(Commands.ManpageCommand.command),
        .command(Commands.DemoCommand.command),
    ]

    static let groups: [Group] = nodes.compactMap { if case .group(let group) = $0 { group } else { nil } }

    static func group(_ name: String) -> Group? { groups.first { $0.name == name } }
}

/// The tree read the ways the rest of the program needs it.
enum Commands {
    /// Every command, in the order `--help` lists them.
    static let all: [Command] = CommandTree.nodes.flatMap { node -> [Command] in
        switch node {
        case .command(let command): [command]
        case .group(let group): (group.own.map { [$0] } ?? []) + group.commands
        }
    }

    /// The groups whose noun alone runs something, or lists what it has: `favorites`, `delivered`.
    static let groups: [String] = CommandTree.groups.filter { !$0.ownTakesOtherWords }.map(\.name)

    /// The command named `name` exactly.
    static func named(_ name: String) -> Command? { all.first { $0.name == name } }

    /// The subcommands under `name`: `route add`, `route edit`…
    static func subcommands(of name: String) -> [Command] { CommandTree.group(name)?.commands ?? [] }

    /// The help of a group that is not itself a command (`transit --help`): every subcommand with
    /// its summary. Nil for any other word.
    static func groupHelp(_ name: String) -> String? {
        guard let group = CommandTree.group(name), group.own == nil, let summary = group.summary else { return nil }
        var lines = ["Usage: traveltimes \(name) COMMAND [options]", "", summary, "", "Commands:"] + table(of: group.commands.map(\.name)) + [""]
        if let alone = group.alone { lines.append("'traveltimes \(name)' alone runs '\(name) \(alone)'.") }
        lines.append("See 'traveltimes \(name) COMMAND --help' for one of them.")
        return lines.joined(separator: "\n")
    }

    /// `  add     Add a transit feed …`: commands by name with their summaries.
    static func table(of names: [String]) -> [String] {
        var table = Table([.left, .left])
        for name in names {
            guard let command = named(name) else { continue }
            table.add(["  " + name, command.summary])
        }
        return table.render()
    }

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

    /// Finds the command the words name, and the words left for its options.
    static func resolve(_ words: [String]) -> Result<(Command, [String]), UsageError> {
        guard let first = words.first else { return .failure(UsageError(message: "No command.", command: "")) }
        let rest = Array(words.dropFirst())
        guard let group = CommandTree.group(first) else {
            guard let command = named(first) else { return .failure(UsageError(message: CLI.unknownCommandMessage(first), command: "")) }
            return .success((command, rest))
        }
        let subs = group.subcommandWords
        let word = rest.first.flatMap { $0.first == "-" ? nil : $0 }
        if let word, let index = subs.firstIndex(of: word) { return .success((group.commands[index], Array(rest.dropFirst()))) }
        if let own = group.own, word == nil || group.ownTakesOtherWords { return .success((own, rest)) }
        guard let word else {
            if let alone = group.alone, let index = subs.firstIndex(of: alone) { return .success((group.commands[index], rest)) }
            return .failure(UsageError(message: "'\(first)' needs one of: \(subs.joined(separator: ", ")).", command: ""))
        }
        var message = "Unknown command '\(first) \(word)'."
        if let suggestion = Suggestions.closest(to: word, in: subs) { message += " Did you mean '\(first) \(suggestion)'?" }
        message += " '\(first)' has: \(subs.joined(separator: ", "))."
        return .failure(UsageError(message: message, command: ""))
    }
}
