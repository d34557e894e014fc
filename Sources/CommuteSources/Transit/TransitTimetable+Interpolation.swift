import Basics
import FoundationEssentials

extension TransitTimetable {
    /// A call at a route's stop whose time the timetable leaves blank (an untimed stop).
    struct UntimedCall {
        var request: Int
        var sequence: Int
        /// A boarding at the first stop, or else an arrival at the second.
        var isFrom: Bool
    }

    /// The same call, timed.
    struct TimedCall {
        var request: Int
        var sequence: Int
        var isFrom: Bool
        var time: Int
    }

    /// The most calls of one trip read to time its untimed ones: far past any real trip's.
    static let longestTrip = 2_000

    /// The untimed calls timed as GTFS leaves it to readers (stop_times.txt: "arrival_time …
    /// interpolated"): linearly between the trip's timed calls before and after, by the distance
    /// travelled — `shape_dist_traveled` where the feed gives it for the calls, else the straight
    /// line between the stops — and by the number of stops where neither is known. A call before
    /// the trip's first time or after its last stays untimed and is left out. Reads
    /// `stop_times.txt` again, keeping only these trips, and `stops.txt` for their stops.
    static func interpolated(_ untimed: [String: [UntimedCall]], in archive: ZipArchive) throws -> [String: [TimedCall]] {
        struct Call {
            var sequence: Int
            var stop: String
            var departure: Int?
            var arrival: Int?
            var distance: Double?
        }
        var calls: [String: [Call]] = [:]
        try GTFSTable.read(
            "stop_times.txt", in: archive,
            columns: ["trip_id", "stop_id", "stop_sequence", "arrival_time", "departure_time", "shape_dist_traveled"]
        ) { row in
            let trip = String(row[0])
            guard untimed[trip] != nil, let sequence = Int(row[2]), (calls[trip]?.count ?? 0) < Self.longestTrip else { return true }
            let distance = NumberParsing.decimal(row[5]).flatMap { $0.isFinite ? $0 : nil }
            calls[trip, default: []].append(Call(
                sequence: sequence, stop: String(row[1]), departure: Self.seconds(row[4].isEmpty ? row[3] : row[4]),
                arrival: Self.seconds(row[3].isEmpty ? row[4] : row[3]), distance: distance))
            return true
        }
        let needed = Set(calls.values.joined().map(\.stop))
        var places: [String: (latitude: Double, longitude: Double)] = [:]
        try GTFSTable.read("stops.txt", in: archive, columns: ["stop_id", "stop_lat", "stop_lon"]) { row in
            let id = String(row[0])
            if needed.contains(id), let latitude = NumberParsing.signedDecimal(row[1]), let longitude = NumberParsing.signedDecimal(row[2]),
                abs(latitude) <= 90, abs(longitude) <= 180
            {
                places[id] = (latitude, longitude)
            }
            return true
        }

        var timed: [String: [TimedCall]] = [:]
        for (trip, wanted) in untimed {
            guard var list = calls[trip] else { continue }
            list.sort { $0.sequence < $1.sequence }
            // How far along the trip each call is: its shape distance when every call has one
            // (never decreasing), else the straight line stop to stop, else one per stop.
            let distances: [Double]
            if list.allSatisfy({ $0.distance != nil }), zip(list, list.dropFirst()).allSatisfy({ ($0.distance ?? 0) <= ($1.distance ?? 0) }) {
                distances = list.map { $0.distance ?? 0 }
            } else if list.allSatisfy({ places[$0.stop] != nil }) {
                var total = 0.0
                var along: [Double] = [0]
                for (from, to) in zip(list, list.dropFirst()) {
                    if let a = places[from.stop], let b = places[to.stop] { total += Self.metres(a, b) }
                    along.append(total)
                }
                distances = along
            } else {
                distances = list.indices.map(Double.init)
            }
            for call in wanted {
                guard let index = list.firstIndex(where: { $0.sequence == call.sequence }),
                    let before = list[..<index].lastIndex(where: { $0.departure != nil }),
                    let after = list[(index + 1)...].firstIndex(where: { $0.arrival != nil }),
                    let leaves = list[before].departure, let reaches = list[after].arrival, reaches >= leaves
                else { continue }
                let span = distances[after] - distances[before]
                let fraction = span > 0
                    ? (distances[index] - distances[before]) / span
                    : Double(index - before) / Double(after - before)
                // To the minute, as timetables are: a boarding rounded down (be there early), an
                // arrival up (never promised sooner than it may be).
                let exact = Double(leaves) + Double(reaches - leaves) * min(1, max(0, fraction))
                let time = Int(call.isFrom ? (exact / 60).rounded(.down) * 60 : (exact / 60).rounded(.up) * 60)
                timed[trip, default: []].append(TimedCall(request: call.request, sequence: call.sequence, isFrom: call.isFrom, time: time))
            }
        }
        return timed
    }

    /// The great-circle distance between two points, in metres.
    static func metres(_ a: (latitude: Double, longitude: Double), _ b: (latitude: Double, longitude: Double)) -> Double {
        let radians = Double.pi / 180
        let dLatitude = (b.latitude - a.latitude) * radians, dLongitude = (b.longitude - a.longitude) * radians
        let h = pow(sin(dLatitude / 2), 2) + cos(a.latitude * radians) * cos(b.latitude * radians) * pow(sin(dLongitude / 2), 2)
        return 2 * 6_371_000 * asin(min(1, sqrt(h)))
    }
}
