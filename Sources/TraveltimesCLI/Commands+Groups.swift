import CommuteCore
import FoundationEssentials

extension Commands {
    static let groupAdd = Command(
        name: "group add",
        summary: "Name a group of favorites (for `brief --group`)",
        arguments: "NAME",
        positionals: 1...1,
        options: [OptionSpec(name: "--route", value: "ID", help: "A favorite route; repeat or use commas", repeatable: true, values: .favoriteRouteID)]
    ) { invocation in
        let routeIDs = try groupRoutes(invocation)
        guard let routeIDs else { throw ModelError.noRoutes }
        let group = try invocation.commute().favorites.addGroup(invocation.arguments.positionals[0], routeIDs: routeIDs)
        invocation.io.out("Added group '\(group.name)': \(group.routeIDs.joined(separator: ", ")).")
    }

    static let groupList = Command(
        name: "group list",
        summary: "List groups (also: traveltimes group)",
        options: [Options.json]
    ) { invocation in
        // It needs nothing from config.json: a damaged one does not stop the listing.
        let commute = try invocation.commute(unreadableConfiguration: .readsAsDefaults)
        let groups = try commute.favorites.read().groups
        if invocation.wantsJSON {
            try invocation.printJSON(groups)
            return
        }
        guard !groups.isEmpty else {
            invocation.io.out("No groups yet: add one with `traveltimes group add NAME --route ID...`.")
            return
        }
        let routes = try commute.routes.all().byID
        for group in groups {
            invocation.io.out("\(group.name): \(describe(group.routeIDs, routes))")
        }
    }

    static let groupEdit = Command(
        name: "group edit",
        summary: "Change a group's routes or name",
        arguments: "NAME",
        positionals: 1...1,
        argumentValues: [.groupName],
        options: [
            OptionSpec(name: "--route", value: "ID", help: "New routes, replacing the old; repeat or use commas", repeatable: true, values: .favoriteRouteID),
            OptionSpec(name: "--rename", value: "NEW", help: "New name"),
        ]
    ) { invocation in
        let routeIDs = try groupRoutes(invocation)
        let newName = invocation.arguments.value("--rename")
        guard routeIDs != nil || newName != nil else { throw invocation.usage("Nothing to change: give --route or --rename.") }
        let group = try invocation.commute().favorites.editGroup(invocation.arguments.positionals[0], routeIDs: routeIDs, newName: newName)
        invocation.io.out("Group '\(group.name)': \(group.routeIDs.joined(separator: ", ")).")
    }

    static let groupRemove = Command(
        name: "group remove",
        summary: "Delete a group (its routes stay favorites)",
        arguments: "NAME",
        positionals: 1...1,
        argumentValues: [.groupName],
        options: [Options.yes],
        discussion: "Asks first on a terminal; otherwise needs --yes."
    ) { invocation in
        let commute = try invocation.commute()
        let name = invocation.arguments.positionals[0]
        guard let group = try commute.favorites.read().group(named: name) else { throw CommuteError.unknownGroup(name) }
        try invocation.confirm("This will delete the group '\(group.name)' (its routes stay favorites).", question: "Delete it?")
        let removed = try commute.favorites.removeGroup(group.name)
        invocation.io.out("Deleted group '\(removed.name)'.")
    }

    /// `--route` values, or nil when none were given.
    private static func groupRoutes(_ invocation: Invocation) throws -> [String]? {
        let values = invocation.arguments.all("--route")
        guard !values.isEmpty else { return nil }
        return try values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { try ScheduleParsing.routeID(String($0)) }
    }
}
