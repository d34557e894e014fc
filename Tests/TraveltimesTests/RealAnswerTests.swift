import Foundation
import Testing

/// Answers the real services sent, recorded in their documentation or in other projects' test
/// data (`Fixtures/real/`, each named in `SOURCES.md`), served byte for byte by the stand-ins and
/// read through the binary. Each test states what the file says.
@Suite struct RealAnswerTests {
    static func real(_ name: String) -> String { Paths.root.appendingPathComponent("Fixtures/real/\(name)").path }

    /// A store with the Transitous/Nominatim stand-in answering `path` with a recorded file.
    func replaying(_ server: TransitousServer, _ replay: [String: String]) throws -> Sandbox {
        let sandbox = Sandbox()
        sandbox.environment.merge(server.environment) { _, new in new }
        let table = replay.map { "\"\($0.key)\": \"\(Self.real($0.value))\"" }.joined(separator: ", ")
        try server.steer("{\"replay\": {\(table)}}")
        return sandbox
    }

    /// Nominatim's own documented answers: centroids of 14 and 15 decimals (`13.36690305710228`),
    /// as its server writes a double, are read as the places they are.
    @Test func nominatimsDocumentedAnswersAreReadWithEveryDecimal() throws {
        let server = try TransitousServer()
        let cases: [(file: String, search: String, saved: String)] = [
            ("nominatim/search-jsonv2-bakery-in-berlin-wedding.json", "bakery in berlin wedding",
             "52.542743,13.366903: Ditsch, Lindower Straße, Sprengelkiez, Wedding, Mitte, Berlin, 13347, Deutschland"),
            ("nominatim/search-json-unter-den-linden-1-berlin.json", "Unter den Linden 1 Berlin",
             "52.517208,13.397834: Kommandantenhaus, 1, Unter den Linden, Friedrichswerder, Mitte, Berlin, 10117, Deutschland"),
            ("nominatim/lookup-json-brandenburger-tor.json", "Brandenburger Tor Potsdam",
             "52.399551,13.048067: Brandenburger Tor, Brandenburger Straße, Historische Innenstadt, Innenstadt, Potsdam, Brandenburg, 14467, Germany"),
        ]
        for (index, item) in cases.enumerated() {
            let sandbox = try replaying(server, ["/search": item.file])
            let saved = try sandbox.ok(["place", "add", "p\(index)", "--search", item.search])
            #expect(saved.stdout == "Saved place p\(index) at \(item.saved).\n" + TransitousTests.nominatim, "\(item.file)")
        }
        // The place keeps what the answer said, not the six decimals shown.
        let sandbox = try replaying(server, ["/search": "nominatim/search-jsonv2-bakery-in-berlin-wedding.json"])
        try sandbox.ok(["place", "add", "bakery", "--search", "bakery in berlin wedding"])
        let places = try #require(try sandbox.json(["place", "list", "--json"]) as? [[String: Any]])
        #expect(places.first?["lat"] as? Double == 52.54274275)
        #expect(places.first?["lon"] as? Double == 13.36690305710228)
    }

    /// The same precision pasted by hand, as a user copies it from the answer or a map.
    @Test func aPastedCoordinateOfAnyPrecisionIsAPlace() throws {
        let sandbox = Sandbox()
        #expect(try sandbox.ok(["place", "add", "bakery", "52.54274275,13.36690305710228"]).stdout
            == "Saved place bakery at 52.542743,13.366903.\n")
        #expect(try sandbox.ok(["place", "add", "tor", "52.399550700000006,13.048066846939687"]).stdout
            == "Saved place tor at 52.399551,13.048067.\n")
        // Still only plain decimals: an exponent, a whole part no degree has, or no digits is refused.
        for text in ["5.2e1,13.3", "1234567890.1,13.3", "52.,13.3", "52.5,13.3.1"] {
            let refused = try sandbox.run(["place", "add", "x", text])
            #expect(refused.status == 64, "\(text): \(refused)")
        }
    }
}
