import CommuteCore
import FoundationEssentials

extension Commands {
    enum PlaceRemoveCommand {
        static let command = Command(
            name: "place remove",
            summary: "Forget a place (routes added with it keep their points)",
            arguments: "NAME",
            positionals: 1...1,
            argumentValues: [.placeName]
        ) { invocation in
            let commute = try invocation.commute()
            let place = try commute.places.remove(invocation.arguments.positionals[0])
            invocation.io.out("Removed place \(place.name); routes added with it keep their points.")
        }
    }
}
