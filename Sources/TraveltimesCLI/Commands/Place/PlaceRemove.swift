import CommuteCore
import FoundationEssentials

extension Commands {
    enum PlaceRemoveCommand {
        static let command = Command(
            name: "place remove",
            summary: "Forget a place (routes added with it keep their points)",
            arguments: "NAME",
            positionals: 1...1,
            argumentValues: [.placeName],
            options: [Options.yes],
            discussion: "Asks first on a terminal; otherwise needs --yes."
        ) { invocation in
            let commute = try invocation.commute()
            let name = invocation.arguments.positionals[0]
            _ = try commute.places.point(name)
            try invocation.confirm("This will forget place \(DisplayText.line(name)) (routes added with it keep their points).", question: "Remove it?")
            let place = try commute.places.remove(name)
            invocation.io.out("Removed place \(place.name); routes added with it keep their points.")
        }
    }
}
