import CommuteCore
import FoundationEssentials

extension Commands {
    enum GroupAddCommand {
        static let command = Command(
            name: "group add",
            summary: "Name a group of favorites (for `brief --group`)",
            arguments: "NAME",
            positionals: 1...1,
            options: [route]
        ) { invocation in
            let routeIDs = try routes(Self.route, invocation)
            guard let routeIDs else { throw ModelError.noRoutes }
            let group = try invocation.commute().favorites.addGroup(invocation.arguments.positionals[0], routeIDs: routeIDs)
            invocation.io.out("Added group '\(group.name)': \(group.routeIDs.joined(separator: ", ")).")
        }

        static let route = ScheduleOptions.routes(help: "A favorite route; repeat or use commas")
    }
}
