import CommuteCore
import FoundationEssentials

/// What an argument or an option's value is: how it is completed, and how the man page names it.
enum ValueKind: Sendable, Equatable {
    /// Any cached route.
    case routeID
    /// A favorite route.
    case favoriteRouteID
    /// A watched route.
    case watchedRouteID
    /// A custom route (`route add`).
    case customRouteID
    /// A pause's number.
    case pauseNumber
    case scheduleID
    case notifierNumber
    case groupName
    /// A commute's name (`commute add`).
    case commuteName
    /// A saved place (`place add`).
    case placeName
    case preset
    case days
    case configKey
    /// A file name, completed by the shell.
    case file
    /// One of these words.
    case words([String])
}

/// Shell completion, computed from the command table that `--help` renders: the shells' scripts
/// hand the command line to `traveltimes completions candidates` at each TAB, and print what it
/// answers. So a new command or option completes without being written into three scripts, and
/// values come from the store (route IDs, schedule IDs, notifier numbers, group names), reading
/// `config.json` (as every command opens the store) and the file that holds them.
enum Completion {
    /// The first line of an answer that asks the shell to complete file names.
    static let files = "@file"

    /// The candidates for the last of `words` — the words after `traveltimes`, the last being the
    /// one under the cursor (empty at a space) — each a line: the word, then a tab and what it is
    /// when there is something to say. Opens the store (`commute`) only for the values asked for; a
    /// store that cannot be read gives no candidates, never an error on a TAB.
    static func candidates(for words: [String], commute: () throws -> Commute) -> [String] {
        guard let current = words.last else { return [] }
        let before = Commands.spelledOneWay(Array(words.dropLast()))
        guard let (command, used) = resolve(before) else {
            // Still choosing the command (the other spelling of `favorites` completes too).
            guard let first = before.first else { return matching(current, topLevel() + (current.hasPrefix("favou") ? ["favourites"] : [])) }
            guard before.count == 1, Commands.groups.contains(first) else { return [] }
            let subcommands = Commands.subcommands(of: first).map { "\($0.name.dropFirst(first.count + 1))\t\($0.summary)" }
            return matching(current, subcommands)
        }
        let rest = before.dropFirst(used)
        // Which positional the current word is, and whether it is an option's value.
        var positional = 0
        var expecting: OptionSpec?
        for word in rest {
            if expecting != nil {
                expecting = nil
                continue
            }
            if word.hasPrefix("-"), !(command.verbatimArguments && positional > 0) {
                let name = String(word.prefix { $0 != "=" })
                if let option = command.allOptions.first(where: { $0.name == name || $0.short == name }), option.value != nil,
                    !word.contains("=")
                {
                    expecting = option
                }
                continue
            }
            positional += 1
        }
        if let option = expecting {
            return option.values.map { values(of: $0, current, commute: commute) } ?? []
        }
        // After a verbatim command's first argument (a program and its arguments), nothing is known.
        if command.verbatimArguments, positional > 0 { return [] }
        if current.hasPrefix("-") {
            return matching(current, command.allOptions.map { "\($0.name)\t\($0.help)" })
        }
        // `route ` and `pause ` offer their subcommands (beside the route IDs).
        let isHybrid = CommandTree.group(command.name)?.ownTakesOtherWords == true
        let subcommands = isHybrid && positional == 0 && rest.isEmpty
            ? matching(current, Commands.subcommands(of: command.name).map { "\($0.name.dropFirst(command.name.count + 1))\t\($0.summary)" })
            : []
        let kinds = command.argumentValues
        if !kinds.isEmpty, positional < command.positionals.upperBound {
            return subcommands + values(of: kinds[min(positional, kinds.count - 1)], current, commute: commute)
        }
        if !subcommands.isEmpty { return subcommands + matching(current, command.allOptions.map { "\($0.name)\t\($0.help)" }) }
        return matching(current, command.allOptions.map { "\($0.name)\t\($0.help)" })
    }

    /// The command the words name, and how many words name it; nil while it is not yet chosen.
    private static func resolve(_ words: [String]) -> (Command, Int)? {
        guard let first = words.first else { return nil }
        if Commands.groups.contains(first) {
            guard words.count >= 2 else { return nil }
            if let command = Commands.named("\(first) \(words[1])") { return (command, 2) }
            guard words[1].hasPrefix("-"), case .success(let (command, _)) = Commands.resolve([first]) else { return nil }
            return (command, 1)
        }
        if let group = CommandTree.group(first), group.ownTakesOtherWords, words.count >= 2, let command = Commands.named("\(first) \(words[1])") {
            return (command, 2)
        }
        guard let command = Commands.named(first) else { return nil }
        return (command, 1)
    }

    private static func topLevel() -> [String] {
        var seen = Set<String>()
        var names: [String] = []
        for command in Commands.all {
            let first = String(command.name.split(separator: " ")[0])
            guard seen.insert(first).inserted else { continue }
            names.append(Commands.groups.contains(first) ? first : "\(first)\t\(command.summary)")
        }
        return names + ["help", "--help", "--version"]
    }

    private static func values(of kind: ValueKind, _ current: String, commute: () throws -> Commute) -> [String] {
        switch kind {
        case .file: return [files]
        case .words(let words): return matching(current, words)
        case .preset: return matching(current, Schedule.Preset.allCases.map { "\($0.rawValue)\t\(Commands.presetHelp($0))" })
        case .days:
            // A comma list: complete the word after the last comma.
            let head = current.lastIndex(of: ",").map { String(current[...$0]) } ?? ""
            let words = ["weekdays", "weekends", "daily"] + Weekday.mondayFirst.map { $0.shortName.lowercased() }
            return matching(current, words.map { head + $0 })
        case .configKey: return matching(current, Commands.configKeys)
        default: break
        }
        guard let commute = try? commute() else { return [] }
        let lines: [String]
        switch kind {
        case .routeID, .customRouteID:
            let routes = ((try? commute.routes.all().routes) ?? []).filter { kind == .routeID || $0.isProviderRoute }
            lines = routes.map { "\($0.id)\t\($0.name)" }
        case .favoriteRouteID, .watchedRouteID:
            let ids = kind == .favoriteRouteID
                ? (try? commute.favorites.read().routeIDs) ?? [] : (commute.configuration.watches ?? []).map(\.routeID)
            let names = (try? commute.routes.all().byID) ?? [:]
            lines = ids.map { id in names[id].map { "\(id)\t\($0.name)" } ?? id.rawValue }
        case .scheduleID:
            lines = ((try? commute.schedules.read().schedules) ?? []).map {
                "\(Commands.shortID($0))\t\($0.timeLabel) on \($0.daysLabel)"
            }
        case .notifierNumber:
            lines = (commute.configuration.notifiers ?? []).map { "\($0.id)\t\($0.summary)" }
        case .groupName:
            lines = ((try? commute.favorites.read().groups) ?? []).map(\.name)
        case .commuteName:
            lines = ((try? commute.ways.list()) ?? []).map { "\($0.name)\t\($0.routeIDs.map(\.rawValue).joined(separator: ", "))" }
        case .placeName:
            lines = ((try? commute.places.list()) ?? []).map { "\($0.name)\t\($0.label ?? "\($0.latitude),\($0.longitude)")" }
        case .pauseNumber:
            lines = ((try? commute.schedules.read())?.pauses ?? []).map { "\($0.number)\t\($0.from.iso) – \($0.until.iso)" }
        default: lines = []
        }
        return matching(current, lines)
    }

    /// The lines whose word starts with the text typed.
    private static func matching(_ current: String, _ lines: [String]) -> [String] {
        lines.filter { $0.prefix { $0 != "\t" }.hasPrefix(current) }.map(DisplayText.terminal)
    }
}
