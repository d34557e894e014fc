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
                route,
                rename,
            ]
        ) { invocation in
            let routeIDs = try routes(Self.route, invocation)
            let newName = try invocation.value(Self.rename)
            guard routeIDs != nil || newName != nil else { throw invocation.usage("Nothing to change: give --route or --rename.") }
            let group = try invocation.commute().favorites.editGroup(invocation.arguments.positionals[0], routeIDs: routeIDs, newName: newName)
            invocation.io.out("Group '\(group.name)': \(group.routeIDs.joined(separator: ", ")).")
        }

        static let route = ScheduleOptions.routes(help: "New routes, replacing the old; repeat or use commas")
        static let rename = Option<String>("--rename", value: "NEW", help: "New name")
    }
}
