import Foundation
import TestThreads
import Testing

import Basics
@testable import CommuteModel

/// A car route's line and the Autobahn API's items, read from real answers (`Fixtures/real/`).
@Suite(.ownThreads) struct RouteLineTests {
    static func real(_ path: String) throws -> Data {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try Data(contentsOf: root.appendingPathComponent("Fixtures/real/" + path))
    }

    static func json(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: real(path)) as? [String: Any])
    }

    @Test func osrmsStepsDrawTheLineFromWhereItsFirstManeuverIs() throws {
        let answer = try Self.json("osrm/portugal_to_korea.json")
        let route = try #require((answer["routes"] as? [[String: Any]])?.first)
        let line = try #require(OSRMRouting.line(of: route))
        let steps = try #require(((route["legs"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]]))
        let first = try #require((steps.first?["maneuver"] as? [String: Any])?["location"] as? [Double])
        // The first point is the first maneuver's place (longitude first there), to the polyline's precision.
        #expect(abs(line.points[0].latitude - first[1]) < 1e-5 && abs(line.points[0].longitude - first[0]) < 1e-5)
        #expect(line.points.count == RouteLine.largestPointCount)
        // The last is the last maneuver's (the arrival).
        let last = try #require((steps.last?["maneuver"] as? [String: Any])?["location"] as? [Double])
        #expect(abs(line.points[line.points.count - 1].latitude - last[1]) < 1e-5 && abs(line.points[line.points.count - 1].longitude - last[0]) < 1e-5)
        // Korean and Asian highway refs (`AH1; 1`, `35`) are no motorway the Autobahn API knows;
        // across Europe the steps' refs name its `A` roads, once each, in the order driven.
        #expect(line.roads == ["A2", "A12", "A10", "A1", "A46", "A57", "A44", "A3", "A63", "A25", "A23"])
        #expect(steps.contains { ($0["ref"] as? String) == "AH1; 1" })
    }

    @Test func valhallasShapeIsReadAtItsPrecisionAndItsStreetNamesAreNotMotorways() throws {
        let answer = try Self.json("valhalla/route.json")
        let trip = try #require(answer["trip"] as? [String: Any])
        let line = try #require(ValhallaRouting.line(of: trip))
        let locations = try #require(trip["locations"] as? [[String: Any]])
        let start = try #require(locations.first)
        // The documented trip in Berlin: its shape starts at its first location, within a few metres.
        let origin = try #require(Coordinate(latitude: start["lat"] as? Double ?? 0, longitude: start["lon"] as? Double ?? 0))
        #expect(RouteLine.metres(line.points[0], origin) < 30, "\(line.points[0])")
        #expect(line.roads.isEmpty)  // `B 1`, `B 5` are federal roads, not motorways
        #expect(RouteLine.motorways(in: "A 8;A 81") == ["A8", "A81"] && RouteLine.motorways(in: "B 1") == [] && RouteLine.motorways(in: "A 08") == [])
    }

    @Test func theAutobahnAPIsRealAndDocumentedFormsAreBothRead() throws {
        // Real: numbers, latitude-first `point`, a geometry; two planned for later.
        let closures = try #require(AutobahnIncidents.read(try Self.real("autobahn/A8-closure.json"), road: "A8", service: "closure"))
        #expect(closures.map(\.title) == ["A8 | München-Süd - Sauerlach", "A8 | Sindelfinger Wald - Leonberg", "A8 | München-Langwied - Dachau/Fürstenfeldbruck"])
        #expect(closures.map(\.future) == [true, false, true])
        #expect(closures.map(\.kind) == ["CLOSURE", "CLOSURE_ENTRY_EXIT", "CLOSURE"])
        #expect(closures[1].points.first == Coordinate(latitude: 48.769612636092646, longitude: 9.029744866858325))
        #expect(closures[1].direction == "Stuttgart -> Heilbronn")
        // Documented: strings.
        let documented = try #require(AutobahnIncidents.read(try Self.real("autobahn/A1-warning-documented.json"), road: "A1", service: "warning"))
        #expect(documented.first?.points == [Coordinate(latitude: 53.00507, longitude: 8.69904)].compactMap { $0 })
        // Not the shape: nil; an empty object is no item.
        #expect(AutobahnIncidents.read(Data("[1]".utf8), road: "A8", service: "warning") == nil)
        #expect(AutobahnIncidents.read(Data(#"{"closure": []}"#.utf8), road: "A8", service: "warning") == nil)
        #expect(AutobahnIncidents.read(Data("{}".utf8), road: "A8", service: "warning") == [])
    }

    @Test func anItemIsOnARouteWhenNearItsLineAndInForce() throws {
        let warnings = try #require(AutobahnIncidents.read(try Self.real("autobahn/A8-warning.json"), road: "A8", service: "warning"))
        let line = RouteLine(
            points: [Coordinate(latitude: 48.8309, longitude: 8.95), Coordinate(latitude: 48.8509, longitude: 8.7)].compactMap { $0 }, roads: ["A8"])
        let began = try #require(warnings.first?.start)
        #expect(Incident.near(line, in: warnings, at: began.addingTimeInterval(60)).count == 1)
        #expect(Incident.near(line, in: warnings, at: began.addingTimeInterval(-60)).isEmpty)  // not yet
        // 300 m north of the line is off it.
        let north = RouteLine(points: line.points.compactMap { Coordinate(latitude: $0.latitude + 0.0027, longitude: $0.longitude) }, roads: ["A8"])
        #expect(Incident.near(north, in: warnings, at: began.addingTimeInterval(60)).isEmpty)
        // Another road's line does not take it.
        #expect(Incident.near(RouteLine(points: line.points, roads: ["A81"]), in: warnings, at: began.addingTimeInterval(60)).isEmpty)
        // A polyline of garbage is no line.
        #expect(RouteLine.decodePolyline("\u{1}\u{2}", precision: 5) == nil)
        #expect(RouteLine.decodePolyline("", precision: 5) == [])
    }
}
