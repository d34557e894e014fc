import CommuteCore
import FoundationEssentials

extension Commands {
    enum GroupEditCommand {
        static let command = Command(
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
    }
}
