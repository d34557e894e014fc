@_spi(Store) @testable import CommuteCore
import Foundation
import TestThreads
import Testing

/// The export kinds, each a file of its own: what `export add` takes for each, and how a saved one
/// is shown, come from the kind's service.
@Suite(.ownThreads) struct ExportRegistryTests {
    @Test func eachKindReadsItsPlaceAndShowsNoSecret() throws {
        let places: [ExportTarget.Kind: (given: String, kept: String, shown: String)] = [
            .homeassistant: ("http://ha.local:8123/", "http://ha.local:8123", "http://ha.local:8123"),
            .mqtt: ("mqtt://ha:secret@10.0.0.5:1883/commute", "mqtt://ha:secret@10.0.0.5:1883/commute", "mqtt://10.0.0.5:1883/commute"),
            .ics: ("leave.ics", "/srv/feeds/leave.ics", "/srv/feeds/leave.ics"),
            .prometheus: ("/var/lib/node/traveltimes.prom", "/var/lib/node/traveltimes.prom", "/var/lib/node/traveltimes.prom"),
        ]
        #expect(Set(places.keys) == Set(ExportTarget.Kind.allCases))
        for kind in ExportTarget.Kind.allCases {
            let place = try #require(places[kind])
            let kept = try kind.location(of: place.given, currentDirectory: "/srv/feeds")
            #expect(kept == place.kept, "\(kind)")
            let target = ExportTarget(id: kind.rawValue, kind: kind, location: kept, token: kind.takesToken ? "tok3n-secret" : nil, createdAt: Date())
            #expect(target.shownLocation == place.shown && !target.shownLocation.contains("secret"), "\(kind)")
            #expect(throws: Never.self) { try target.validate(field: "exports[0]") }
            #expect(kind.takesToken == (kind == .homeassistant))
            #expect(!kind.removing(target).isEmpty && !kind.added(1).isEmpty && !kind.leftBehind.isEmpty)
        }
        // Each kind refuses what is not its place, as the user's fault.
        for (kind, bad) in [(ExportTarget.Kind.homeassistant, "ftp://ha"), (.mqtt, "mqtts://broker"), (.ics, "dir/"), (.prometheus, "")] {
            #expect(throws: ExportFailure.self) { try kind.location(of: bad, currentDirectory: "/") }
            do {
                _ = try kind.location(of: bad, currentDirectory: "/")
            } catch {
                #expect(error.isUsersFault, "\(kind)")
            }
        }
    }
}
