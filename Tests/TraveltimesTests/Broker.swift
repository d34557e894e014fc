import Basics
import CommuteDelivery
import Foundation
import Testing

/// Debian's mosquitto on a free loopback port, with one user, logging every connection; stopped
/// with its owner.
final class Broker: @unchecked Sendable {
    let port: Int
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("broker-\(UUID().uuidString)").path
    private var process: Process?

    init(user: String, password: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        let free = try execute(
            ["/usr/bin/env", "python3", "-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"],
            environment: path)
        port = try #require(Int(free.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(try execute(["mosquitto_passwd", "-c", "-b", directory + "/passwords", user, password], environment: path).status == 0)
        try Sandbox.write(directory + "/mosquitto.conf", Data("""
            listener \(port) 127.0.0.1
            allow_anonymous false
            password_file \(directory)/passwords
            persistence false
            log_dest file \(directory)/broker.log
            log_type all
            \(getuid() == 0 ? "user root" : "")

            """.utf8))
        try start()
    }

    func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
        process.arguments = ["-c", directory + "/mosquitto.conf"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        // Ready once it accepts a connection (within 5 s).
        for _ in 0..<100 {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            close(socket)
            if connected == 0 { return }
            usleep(50_000)
        }
    }

    func stop() {
        guard let process else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The connections traveltimes made so far (mosquitto logs each).
    var connections: Int {
        ((try? String(contentsOfFile: directory + "/broker.log", encoding: .utf8)) ?? "").split(separator: "\n")
            .filter { $0.contains("New client connected") && $0.contains(" as traveltimes") }.count
    }

    /// Every retained message, as a subscriber at QoS 1 gets them: retain flag, QoS, topic, payload.
    func retained(count: Int, user: String, password: String) throws -> String {
        let outcome = try execute(
            // mosquitto_sub's own -W does not end a wait for retained messages: timeout(1) does, with
            // SIGKILL (the test runner's children may inherit SIGTERM blocked).
            ["timeout", "-s", "KILL", "5", "mosquitto_sub", "-h", "127.0.0.1", "-p", String(port), "-u", user, "-P", password, "-q", "1", "-t", "#",
             "--retained-only", "-C", String(count), "-F", "%r %q %t %p"],
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
        return outcome.stdout.split(separator: "\n").sorted().map { $0 + "\n" }.joined()
    }
}
