import CommuteCore
import FoundationEssentials

extension Commands {
    enum GroupRemoveCommand {
        static let command = Command(
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
    }
}
