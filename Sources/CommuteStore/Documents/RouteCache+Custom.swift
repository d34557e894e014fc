import Basics
import CommuteModel
import FoundationEssentials

extension RouteCache {
    private static let customFields: [StaticString] = [
        "provider", "from", "to", "fetchedAt", "triedAt", "fallback", "estimateMinutes", "estimatedAt", "liveProblem", "calendar", "predictions",
        "movingSince", "readingFactor",
    ]

    static func readCustom(_ reader: inout JSONReader, field: String) throws -> Route.Custom? {
        if try reader.readNull() { return nil }
        try reader.beginObject()
        var provider: RouteProvider?
        var from: Coordinate?
        var to: Coordinate?
        var fetchedAt: Date?
        var triedAt: Date?
        var fallback: RouteProvider?
        var estimate: Int?
        var estimatedAt: Date?
        var problem: String?
        var calendar: String?
        var predictions: [Prediction]?
        var movingSince: Date?
        var factor: Double?
        var seen = JSONReader.FieldsSeen()
        while let key = try reader.nextKey(firstOf: customFields, seen: &seen) {
            switch key {
            case "provider":
                let name = try reader.readString()
                guard let known = RouteProvider(rawValue: name) else {
                    throw DocumentProblem("impossible value: \(field).provider '\(DisplayText.line(name))' is not \(RouteProvider.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                provider = known
            case "from": from = try readCoordinate(&reader, field: "\(field).from")
            case "to": to = try readCoordinate(&reader, field: "\(field).to")
            case "fetchedAt": fetchedAt = try readDate(&reader, field: "\(field).fetchedAt", optional: true)
            case "triedAt": triedAt = try readDate(&reader, field: "\(field).triedAt", optional: true)
            case "fallback":
                let name = try reader.readOptionalString()
                fallback = try name.map { name in
                    guard let engine = RouteProvider(rawValue: name), engine.isFreeFlow else {
                        throw DocumentProblem("impossible value: \(field).fallback '\(DisplayText.line(name))' is not osrm or valhalla")
                    }
                    return engine
                }
            case "estimateMinutes":
                estimate = try reader.readOptionalInt()
                if let minutes = estimate, !(1...Route.longestTravelMinutes).contains(minutes) {
                    throw DocumentProblem("impossible value: \(field).estimateMinutes is \(minutes), not a travel time")
                }
            case "estimatedAt": estimatedAt = try readDate(&reader, field: "\(field).estimatedAt", optional: true)
            case "liveProblem": problem = try reader.readOptionalString().map { DisplayText.line(String($0.prefix(300))) }
            case "calendar":
                calendar = try reader.readOptionalString()
                if let name = calendar, !TransitFeed.isValidName(name) {
                    throw DocumentProblem("impossible value: \(field).calendar '\(DisplayText.line(String(name.prefix(40))))' is not a calendar name")
                }
            case "predictions": predictions = try readPredictions(&reader, field: "\(field).predictions")
            case "movingSince": movingSince = try readDate(&reader, field: "\(field).movingSince", optional: true)
            case "readingFactor":
                factor = try reader.readOptionalDouble()
                if let value = factor, !(0.1...10).contains(value) {
                    throw DocumentProblem("impossible value: \(field).readingFactor is \(value), not a factor on a usual time")
                }
            default: try reader.skipValue()
            }
        }
        guard let provider, let from, let to else { throw DocumentProblem("wrong shape: \(field) needs provider, from and to") }
        var custom = Route.Custom(provider: provider, from: from, to: to, fetchedAt: fetchedAt, triedAt: triedAt)
        custom.fallback = fallback
        custom.estimateMinutes = estimate
        custom.estimatedAt = estimatedAt
        custom.liveProblem = problem
        custom.calendar = calendar
        custom.predictions = predictions
        custom.movingSince = movingSince
        custom.readingFactor = factor
        return custom
    }

    /// A route's predictions: at most `Prediction.kept` are kept (the rest read past), each a
    /// travel time for a departure.
    static func readPredictions(_ reader: inout JSONReader, field: String) throws -> [Prediction]? {
        if try reader.readNull() { return nil }
        try reader.beginArray()
        var predictions: [Prediction] = []
        while try reader.nextElement() {
            guard predictions.count < Prediction.kept else {
                try reader.skipValue()
                continue
            }
            try reader.beginObject()
            var departure: Date?
            var askedAt: Date?
            var minutes: Int?
            var usual: Int?
            var seconds: Double?
            var seen = JSONReader.FieldsSeen()
            while let key = try reader.nextKey(firstOf: ["departure", "minutes", "seconds", "usualMinutes", "askedAt"], seen: &seen) {
                switch key {
                case "departure": departure = try readDate(&reader, field: "\(field).departure", optional: false)
                case "askedAt": askedAt = try readDate(&reader, field: "\(field).askedAt", optional: false)
                case "minutes": minutes = try reader.readOptionalInt()
                case "usualMinutes": usual = try reader.readOptionalInt()
                case "seconds": seconds = try reader.readOptionalDouble()
                default: try reader.skipValue()
                }
            }
            guard let departure, let askedAt, let minutes else { throw DocumentProblem("wrong shape: \(field) needs departure, minutes and askedAt") }
            for value in [minutes, usual].compactMap({ $0 }) where !(1...Route.longestTravelMinutes).contains(value) {
                throw DocumentProblem("impossible value: \(field) has \(value) min, not a travel time")
            }
            if let seconds, !(seconds > 0 && seconds <= Double(Route.longestTravelMinutes * 60)) {
                throw DocumentProblem("impossible value: \(field) has \(seconds) s, not a travel time")
            }
            predictions.append(Prediction(departure: departure, minutes: minutes, seconds: seconds, usualMinutes: usual, askedAt: askedAt))
        }
        return predictions.sorted { $0.departure < $1.departure }
    }

}
