import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Why an MQTT session failed: one line, never the password.
public struct MQTTFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The MQTT 3.1.1 packets a publisher needs (OASIS MQTT 3.1.1 §2–3), written by hand: CONNECT,
/// PUBLISH, DISCONNECT; and the reading of CONNACK and PUBACK.
public enum MQTTPacket {
    /// One message to publish.
    public struct Message: Sendable, Equatable {
        public var topic: String
        public var payload: Data
        public var retain: Bool
        public var qos: UInt8

        public init(topic: String, payload: Data, retain: Bool = true, qos: UInt8 = 1) {
            self.topic = topic
            self.payload = payload
            self.retain = retain
            self.qos = qos
        }
    }

    /// Remaining Length (§2.2.3): seven bits a byte, low group first, at most four bytes.
    public static func remainingLength(_ value: Int) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        repeat {
            var byte = UInt8(value % 128)
            value /= 128
            if value > 0 { byte |= 0x80 }
            out.append(byte)
        } while value > 0
        return out
    }

    /// The largest Remaining Length.
    public static let largestRemainingLength = 268_435_455

    /// A UTF-8 string with its two-byte length (§1.5.3).
    static func string(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        return [UInt8(bytes.count >> 8 & 0xFF), UInt8(bytes.count & 0xFF)] + bytes
    }

    static func packet(_ first: UInt8, _ body: [UInt8]) -> [UInt8] { [first] + remainingLength(body.count) + body }

    /// CONNECT (§3.1): protocol "MQTT" level 4, a clean session, `keepAlive` seconds; a last will
    /// (§3.1.2.5: what the broker publishes when the connection drops without a DISCONNECT) when
    /// given; the user name and password when given (a password only with a user name).
    public static func connect(clientID: String, user: String?, password: String?, keepAlive: UInt16, will: Message? = nil) -> [UInt8] {
        var flags: UInt8 = 0x02
        if let will { flags |= 0x04 | (will.qos & 0x03) << 3 | (will.retain ? 0x20 : 0) }
        if user != nil { flags |= 0x80 }
        if user != nil, password != nil { flags |= 0x40 }
        var body = string("MQTT") + [4, flags, UInt8(keepAlive >> 8), UInt8(keepAlive & 0xFF)] + string(clientID)
        if let will {
            body += string(will.topic)
            body += [UInt8(will.payload.count >> 8 & 0xFF), UInt8(will.payload.count & 0xFF)] + Array(will.payload)
        }
        if let user {
            body += string(user)
            if let password { body += string(password) }
        }
        return packet(0x10, body)
    }

    /// PUBLISH (§3.3): a packet identifier only for QoS 1 and 2.
    public static func publish(_ message: Message, packetID: UInt16) -> [UInt8] {
        var body = string(message.topic)
        if message.qos > 0 { body += [UInt8(packetID >> 8), UInt8(packetID & 0xFF)] }
        body += Array(message.payload)
        return packet(0x30 | message.qos << 1 | (message.retain ? 1 : 0), body)
    }

    public static let disconnect: [UInt8] = [0xE0, 0x00]

    /// What a CONNACK's return code means (§3.2.2.3).
    public static func refusal(_ code: UInt8) -> String {
        switch code {
        case 1: "the broker refused the protocol version (it needs MQTT 3.1.1)"
        case 2: "the broker refused the client identifier"
        case 3: "the broker is unavailable"
        case 4: "the broker refused the user name or password"
        case 5: "the broker refused: not authorized (check the user name and password)"
        default: "the broker refused the connection (code \(code))"
        }
    }
}

/// One short MQTT session over TCP: connect, publish each message (QoS 1 ones acknowledged),
/// disconnect. Every wait is bounded by one deadline; whatever a broker sends is read within bounds.
public struct MQTTSession: Sendable {
    public var host: String
    public var port: Int
    public var user: String?
    public var password: String?
    public var clientID: String
    /// Published by the broker if the session drops without a DISCONNECT.
    public var will: MQTTPacket.Message?

    public init(host: String, port: Int, user: String?, password: String?, clientID: String, will: MQTTPacket.Message? = nil) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.clientID = clientID
        self.will = will
    }

    /// Publishes `messages` in order within `timeout` seconds.
    public func publish(_ messages: [MQTTPacket.Message], timeout: TimeInterval) throws(MQTTFailure) {
        let deadline = Date().addingTimeInterval(timeout)
        let socket = try connectSocket(deadline: deadline)
        defer { close(socket) }
        try write(socket, MQTTPacket.connect(clientID: clientID, user: user, password: password, keepAlive: 30, will: will), deadline: deadline)
        let (type, body) = try readPacket(socket, deadline: deadline)
        guard type == 0x20, body.count == 2 else { throw MQTTFailure("the server at \(host):\(port) did not answer as an MQTT broker") }
        guard body[1] == 0 else { throw MQTTFailure(MQTTPacket.refusal(body[1])) }
        var waiting = Set<UInt16>()
        var nextID: UInt16 = 1
        for message in messages {
            let id = nextID
            nextID = nextID == UInt16.max ? 1 : nextID + 1
            try write(socket, MQTTPacket.publish(message, packetID: id), deadline: deadline)
            if message.qos > 0 { waiting.insert(id) }
        }
        while !waiting.isEmpty {
            let (type, body) = try readPacket(socket, deadline: deadline)
            guard type == 0x40, body.count == 2 else { throw MQTTFailure("the broker answered a publish with something other than PUBACK") }
            waiting.remove(UInt16(body[0]) << 8 | UInt16(body[1]))
        }
        try? write(socket, MQTTPacket.disconnect, deadline: deadline)
    }

    private func connectSocket(deadline: Date) throws(MQTTFailure) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw MQTTFailure("cannot find the host \(host)")
        }
        defer { freeaddrinfo(list) }
        var failure = "cannot connect to \(host):\(port)"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let socket = Glibc.socket(address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), address.pointee.ai_protocol)
            guard socket >= 0 else { continue }
            let flags = fcntl(socket, F_GETFL)
            _ = fcntl(socket, F_SETFL, flags | O_NONBLOCK)
            if Glibc.connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
                if wait(socket, for: Int16(POLLOUT), deadline: deadline) {
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length)
                    if error == 0 { return socket }
                    failure = "cannot connect to \(host):\(port): \(String(cString: strerror(error)))"
                } else {
                    failure = "no answer from \(host):\(port) in time"
                }
            }
            close(socket)
        }
        throw MQTTFailure(failure)
    }

    /// Whether `socket` is ready for `events` before the deadline.
    private func wait(_ socket: Int32, for events: Int16, deadline: Date) -> Bool {
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            var entry = pollfd(fd: socket, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(min(left * 1_000, 60_000).rounded(.up)))
            if ready > 0 { return true }
            if ready < 0, errno == EINTR { continue }
            if ready < 0 { return false }
        }
    }

    private func write(_ socket: Int32, _ bytes: [UInt8], deadline: Date) throws(MQTTFailure) {
        var sent = 0
        while sent < bytes.count {
            guard wait(socket, for: Int16(POLLOUT), deadline: deadline) else { throw MQTTFailure("the broker at \(host):\(port) stopped reading in time") }
            let count = bytes.withUnsafeBytes { send(socket, $0.baseAddress.map { $0 + sent }, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                throw MQTTFailure("the connection to \(host):\(port) failed: \(String(cString: strerror(errno)))")
            }
            sent += count
        }
    }

    private func readByte(_ socket: Int32, deadline: Date) throws(MQTTFailure) -> UInt8 {
        var byte: UInt8 = 0
        while true {
            guard wait(socket, for: Int16(POLLIN), deadline: deadline) else { throw MQTTFailure("no answer from the broker at \(host):\(port) in time") }
            let count = recv(socket, &byte, 1, 0)
            if count == 1 { return byte }
            if count == 0 { throw MQTTFailure("the broker at \(host):\(port) closed the connection") }
            if errno == EAGAIN || errno == EINTR { continue }
            throw MQTTFailure("the connection to \(host):\(port) failed: \(String(cString: strerror(errno)))")
        }
    }

    /// One packet from the broker: its type and body. The only packets a publisher is sent are
    /// a few bytes long: anything over 64 bytes is not one of them and is refused unread.
    private func readPacket(_ socket: Int32, deadline: Date) throws(MQTTFailure) -> (UInt8, [UInt8]) {
        let first = try readByte(socket, deadline: deadline)
        var length = 0
        var shift = 0
        while true {
            let byte = try readByte(socket, deadline: deadline)
            length |= Int(byte & 0x7F) << shift
            shift += 7
            if byte & 0x80 == 0 { break }
            guard shift < 28 else { throw MQTTFailure("the server at \(host):\(port) did not answer as an MQTT broker") }
        }
        guard length <= 64 else { throw MQTTFailure("the server at \(host):\(port) did not answer as an MQTT broker") }
        var body: [UInt8] = []
        for _ in 0..<length { body.append(try readByte(socket, deadline: deadline)) }
        return (first & 0xF0, body)
    }
}
