import CommuteCore
import FoundationEssentials

extension Commands {
    enum GroupListCommand {
        static let command = Command(
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
    }
}
