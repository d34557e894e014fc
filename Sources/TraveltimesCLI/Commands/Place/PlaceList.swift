import CommuteCore
import FoundationEssentials

extension Commands {
    enum PlaceListCommand {
        static let command = Command(
            name: "place list",
            summary: "List the places saved (also: traveltimes place)",
            options: [Options.json]
        ) { invocation in
            let commute = try invocation.commute(unreadableConfiguration: .readsAsDefaults)
            let places = try commute.places.list()
            if invocation.wantsJSON {
                try invocation.printJSON(places.map { PlaceJSON(name: $0.name, lat: $0.latitude, lon: $0.longitude, label: $0.label, source: $0.source) })
                return
            }
            guard !places.isEmpty else {
                invocation.io.out("No places yet: add one with `traveltimes place add NAME LAT,LON` or `place add NAME --search TEXT`.")
                return
            }
            let width = places.map(\.name.count).max() ?? 0
            for place in places {
                let point = place.coordinate.map(\.description) ?? "?"
                invocation.io.out("\(place.name.padded(to: width))  \(point)" + (place.label.map { "  \($0)" } ?? ""))
            }
        }
    }
}

/// `place list --json`: one place.
struct PlaceJSON: EveryKeyEncodable {
    var name: String
    var lat: Double
    var lon: Double
    var label: String?
    /// coordinates, nominatim or transitous.
    var source: String
}
