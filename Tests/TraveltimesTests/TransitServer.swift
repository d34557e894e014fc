@_spi(Store) import CommuteCore
import CommuteStore
import Foundation
import Testing

/// A transit agency on loopback: the files of a directory served with validators
/// (`transit_server.py`), which a test changes between refreshes as the agency would.
final class TransitServer: @unchecked Sendable {
    let directory: String
    let log: String
    private let server: LoopbackServer

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("transit-\(UUID().uuidString)").path
        directory = base + "-files"
        log = base + ".log"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        server = try LoopbackServer(script: "transit_server.py", arguments: [directory, log])
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
        try? FileManager.default.removeItem(atPath: log)
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(server.port)/\(path)" }

    /// Puts a sample file (or any file) where the server serves it, under `name`.
    func serve(_ source: String, as name: String) throws {
        let target = "\(directory)/\(name)"
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: source, toPath: target)
    }

    struct Request {
        var path: String
        var headers: [String: String]
        var status: Int
    }

    func requests() -> [Request] {
        guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let path = object["path"] as? String, let status = object["status"] as? Int
            else { return nil }
            return Request(path: path, headers: object["headers"] as? [String: String] ?? [:], status: status)
        }
    }
}
