import FoundationEssentials

extension Channel {
    /// Matrix (`matrix://`, `matrixs://TOKEN@HOST/#ROOM`): messages in rooms, revised in place.
    public struct Matrix: Sendable, Equatable {
        public var server: String
        /// The access token: a secret.
        public var token: String
        /// Each `!id:server` or `#alias:server`.
        public var rooms: [String]
        /// `m.text` or `m.notice`.
        public var messageType: String
    }
}

extension Channel.Matrix: ChannelService {
    static let kind = "matrix"
    static let schemes = ["matrix", "matrixs"]
    static let forms = [
        "matrixs://ACCESS_TOKEN@HOST/#ROOM[/#ROOM2] (?to=, ?msgtype=notice; each room joined; a room",
        "  without :SERVER is on the account's homeserver, which may not be HOST)",
    ]
    static let options: Set<String> = ["msgtype", "token", "to"]
    static let sentFormat: String? = "text"
    static let canUpdate = true

    static func read(url: String, scheme: String) throws(Channel.ParseError) -> Channel {
        let parts = try Channel.parts(of: url, scheme: scheme, for: Self.self)
        guard parts.hasValidPort else { throw .init("the port is not a number from 1 to 65535") }
        let token = parts.query["token"] ?? (parts.password == nil ? parts.user : nil)
        guard let token, !token.isEmpty else {
            throw .init(parts.password != nil
                ? "matrix log-in with a password is not supported: use an access token, matrixs://TOKEN@HOST/#ROOM"
                : "a Matrix URL is matrixs://ACCESS_TOKEN@HOST/#ROOM")
        }
        // Every room in the path (`/#room1/#room2`, `/!id:server`) and in `?to=`, each joined
        // before it is sent to, as Apprise does (an invited user can then post).
        var rooms: [String] = []
        for text in parts.path + (parts.query["to"].map { $0.split(separator: ",").map { String($0) } } ?? []) {
            let room = text.trimmingWhitespace()
            guard room.count > 1, room.hasPrefix("#") || room.hasPrefix("!") else {
                throw .init("a Matrix room is #ALIAS or !ROOM_ID: matrixs://TOKEN@HOST/#ROOM")
            }
            // An alias without its server (`#commute`) is completed when sent, with the server
            // the account is on (which may not be this host: a delegated homeserver).
            if !rooms.contains(room) { rooms.append(room) }
        }
        guard !rooms.isEmpty else { throw .init("name the room: matrixs://TOKEN@HOST/#ROOM or /!ROOM_ID:SERVER") }
        let type = parts.query["msgtype"]?.lowercased() ?? "text"
        guard type == "text" || type == "notice" else { throw .init("matrix msgtype is text or notice") }
        return .matrix(.init(server: "\(scheme == "matrixs" ? "https" : "http")://\(parts.hostAndPort)", token: token, rooms: rooms, messageType: "m." + type))
    }

    var summary: String { "matrix \(server)" }
    var listing: Channel.Listing { ("matrix", "\(server) \(rooms.joined(separator: " "))", ["msgtype": .string(messageType)], true) }
    var secrets: [String] { [token] }

    func perform(_ operation: AlertOperation, with sender: ChannelSender) -> AlertReceipt {
        guard let message = operation.message else { return .cannot("Matrix keeps messages in the room; it has nothing to dismiss") }
        let headers = ["Authorization": "Bearer \(token)", "Content-Type": "application/json"]
        let api = "\(server)/_matrix/client/v3"
        let text = "\(message.title)\n\(message.body)"
        // The handle names each room's event: `!room:server $event`, comma-separated (one room's
        // handle, from before there were several, is its event alone).
        var events: [(room: String, event: String)] = []
        if case .update(_, let handle) = operation {
            events = handle.split(separator: ",").map { pair in
                let halves = pair.split(separator: " ", maxSplits: 1)
                return halves.count == 2 ? (String(halves[0]), String(halves[1])) : ("", String(pair))
            }
        }
        var handles: [String] = []
        // A room named without its server is on the account's homeserver: the part of the user
        // ID after its colon (`@me:example.org`), which /whoami gives — as Apprise completes it.
        // Where it cannot be learned, the host in the URL is taken for it.
        var rooms = self.rooms
        if rooms.contains(where: { !$0.contains(":") }) {
            let whoami = sender.request("GET", "\(api)/account/whoami", headers: headers, body: nil, service: "Matrix")
            let user = whoami.succeeded ? whoami.field(["user_id"]) : nil
            let home = user.flatMap { $0.split(separator: ":", maxSplits: 1).dropFirst().first }.map(String.init)
                ?? URLComponents(string: server)?.host ?? ""
            rooms = rooms.map { $0.contains(":") ? $0 : "\($0):\(home)" }
        }
        for (index, room) in rooms.enumerated() {
            // Joining is how an invited user enters a room, and answers the room's ID for an
            // alias; joining a room already joined changes nothing.
            let joined = sender.request("POST", "\(api)/join/\(ChannelSender.pathSegment(room))", headers: headers, body: Data("{}".utf8), service: "Matrix")
            guard joined.succeeded, let id = joined.field(["room_id"]) else {
                return joined.succeeded ? .cannot("Matrix did not name the room \(room)") : joined.receipt()
            }
            var content: [String: Any] = ["msgtype": messageType, "body": text]
            var transaction = message.idempotencyKey.map { rooms.count == 1 ? $0 : "\($0)-\(index)" }
            if case .update = operation {
                guard let previous = events.first(where: { $0.room == id }) ?? (events.count == 1 && events[0].room.isEmpty ? events[0] : nil) else {
                    continue
                }
                content = [
                    "msgtype": messageType, "body": "* " + text,
                    "m.new_content": ["msgtype": messageType, "body": text],
                    "m.relates_to": ["rel_type": "m.replace", "event_id": previous.event],
                ]
                transaction = nil
            }
            // A send's transaction ID is the alert's idempotency key: Matrix answers a repeat with
            // the event it made the first time. A revision is a new transaction.
            let key = transaction ?? "tt\(UInt64(Date().timeIntervalSince1970 * 1_000))\(UInt32.random(in: 0...UInt32.max))"
            let answer = sender.request(
                "PUT", "\(api)/rooms/\(ChannelSender.pathSegment(id))/send/m.room.message/\(key)", headers: headers, body: ChannelSender.json(content),
                service: "Matrix")
            let receipt = answer.receipt(handle: \.["event_id"])
            guard case .delivered = receipt.result else { return receipt }
            if case .send = operation, let event = receipt.handle { handles.append(rooms.count == 1 ? event : "\(id) \(event)") }
        }
        if case .update(_, let handle) = operation { return AlertReceipt(result: .delivered, handle: handle) }
        return AlertReceipt(result: .delivered, handle: handles.joined(separator: ","))
    }
}
