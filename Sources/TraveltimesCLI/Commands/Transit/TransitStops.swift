import CommuteCore
import FoundationEssentials

extension Commands {
    enum TransitStopsCommand {
        static let command = Command(
            name: "transit stops",
            summary: "Find a feed's stop IDs by name, or near a point",
            arguments: "NAME",
            positionals: 1...1,
            options: [
                search,
                near,
                Options.json, Options.now,
            ],
            discussion: "A station (with platforms) can be given as --from-stop or --to-stop: it stands for all its platforms."
        ) { invocation in
            let name = invocation.arguments.positionals[0]
            let search = try invocation.value(Self.search).map { $0.trimmingWhitespace() }
            var near: Coordinate?
            if let text = try invocation.value(Self.near) {
                guard let point = Coordinate(text) else {
                    throw invocation.usage("Invalid --near '\(DisplayText.line(String(text.prefix(60))))': use LAT,LON in decimal degrees, such as 47.6062,-122.3321.")
                }
                near = point
            }
            guard search?.isEmpty == false || near != nil else { throw invocation.usage("Give --search TEXT or --near LAT,LON.") }
            let commute = try invocation.commute()
            let stops: [Transit.TransitStop]
            do {
                stops = try commute.transit.transitStops(name, search: search, near: near)
            } catch let problem as TransitProblem {
                throw TransitFailed(problem: problem, context: "no stops were read", secrets: [])
            }
            if invocation.wantsJSON {
                try invocation.printJSON(stops.map(TransitStopJSON.init))
                return
            }
            guard !stops.isEmpty else {
                invocation.io.out("No stop of \(name) matches.")
                return
            }
            var table = Table([.left, .left, .left])
            table.add(["STOP", "NAME", near == nil ? "" : "DISTANCE"])
            for stop in stops {
                var name = stop.name
                if stop.isStation { name += " (station: stands for its platforms)" }
                if let parent = stop.parent { name += " (platform of \(parent))" }
                table.add([stop.id, name, stop.metres.map { "\(Int($0.rounded())) m" } ?? ""])
            }
            invocation.io.out(table.render().map { $0.trimmingWhitespace() }.joined(separator: "\n"))
        }

        static let search = Option<String>("--search", value: "TEXT", help: "Stops whose name holds TEXT (any case), or whose ID is TEXT")
        static let near = Option<String>("--near", value: "LAT,LON", help: "The 20 stops nearest this point, nearest first")
    }
}
