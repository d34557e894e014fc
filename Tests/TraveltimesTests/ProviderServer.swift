@_spi(Store) import CommuteCore
import CommuteStore
import Foundation
import Testing

/// The loopback stand-in for TomTom, HERE and Google (`Tests/Support/provider_server.py`): it
/// checks each request as the providers document it, answers in their shapes, and logs what it saw.
final class ProviderServer: @unchecked Sendable {
    let log: String
    private let server: LoopbackServer

    init() throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("provider-server-\(UUID().uuidString).log").path
        server = try LoopbackServer(script: "provider_server.py", arguments: [log])
    }

    deinit { try? FileManager.default.removeItem(atPath: log) }

    /// What points a sandbox at this server instead of the providers.
    var environment: [String: String] {
        let base = "http://127.0.0.1:\(server.port)"
        return ["TRAVELTIMES_TOMTOM_URL": base, "TRAVELTIMES_HERE_URL": base + "/", "TRAVELTIMES_GOOGLE_URL": base]
    }

    struct Request {
        var method: String
        var path: String
        var query: [String: String]
        var headers: [String: String]
        var body: String
        /// Requests in flight when it arrived, itself included; the client's port.
        var inFlight: Int
        var port: Int
    }

    func requests() -> [Request] {
        guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            let query = (object["query"] as? [String: [String]] ?? [:]).compactMapValues(\.first)
            return Request(
                method: object["method"] as? String ?? "", path: object["path"] as? String ?? "", query: query,
                headers: object["headers"] as? [String: String] ?? [:], body: object["body"] as? String ?? "",
                inFlight: object["inflight"] as? Int ?? 0, port: object["port"] as? Int ?? 0)
        }
    }

    /// Requests per provider, by path.
    func counts() -> (tomtom: Int, here: Int, google: Int) {
        let all = requests()
        return (
            all.count { $0.path.hasPrefix("/routing/1/") }, all.count { $0.path == "/v8/routes" },
            all.count { $0.path == "/directions/v2:computeRoutes" }
        )
    }
}
