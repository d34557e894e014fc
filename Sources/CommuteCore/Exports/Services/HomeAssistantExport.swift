import Basics
import CommuteModel
import CommuteStore
import FoundationEssentials

/// Home Assistant's REST API (`export add homeassistant URL --token -`): a sensor per favorite,
/// posted to `/api/states/<entity_id>` with a long-lived access token.
enum HomeAssistantExport: ExportService {
    static let form = "URL --token -"
    static let help = [
        "Home Assistant's REST API (http://HOST:8123): a sensor",
        "    per favorite, sensor.traveltimes_<route>, its state the minutes now, its",
        "    attributes unit, typical, status, updated and next_leave. The long-lived access",
        "    token (an administrator's, from your profile page) is read from standard input.",
    ]

    static let takesToken = true

    static func location(of place: String, currentDirectory: String) throws(ExportFailure) -> String {
        guard let url = ExportTarget.homeAssistantURL(place) else {
            throw ExportFailure(
                "Invalid Home Assistant URL: give its base URL, such as http://homeassistant.local:8123 (no user, query or fragment).", isUsersFault: true)
        }
        return url.absoluteString
    }

    static func validate(_ target: ExportTarget, field: String) throws(DocumentProblem) {
        try DocumentProblem.check(ExportTarget.homeAssistantURL(target.location) != nil, "\(field).location is not an http(s) URL")
        try DocumentProblem.check(target.token.map { ExportTarget.isValidToken($0) } ?? false, "\(field).token is missing or not a token")
    }

    static func shownLocation(of target: ExportTarget) -> String {
        guard let url = URL(string: target.location), let scheme = url.scheme, let host = url.host else { return "?" }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }

    static func publish(
        _ target: ExportTarget, _ content: Exports.Content, previous: [String: String], client: any HTTPClient, timeout: TimeInterval, force: Bool
    ) -> Result<Exports.Delivered, ExportFailure> {
        postStates(target, content.sensors, previous: previous, client: client, timeout: timeout)
    }

    /// Every sensor it posted, deleted.
    static func withdraw(_ target: ExportTarget, previous: [String: String], client: any HTTPClient, timeout: TimeInterval) -> Result<Exports.Delivered, ExportFailure>? {
        postStates(target, [], previous: previous, client: client, timeout: timeout)
    }

    static func added(_ count: Int) -> String { "\(count) sensor\(count == 1 ? "" : "s") sent" }
    static func removing(_ target: ExportTarget) -> String { "its sensors are deleted from Home Assistant" }
    static func removed(_ target: ExportTarget, cleared: Int) -> String {
        cleared > 0 ? "; deleted \(cleared) sensor\(cleared == 1 ? "" : "s") from Home Assistant" : ""
    }
    static let leftBehind = "its sensors stay in Home Assistant until it restarts"

    /// POSTs each sensor whose state or attributes changed to `/api/states/<entity_id>`; a sensor
    /// no longer among the favorites is deleted.
    static func postStates(
        _ target: ExportTarget, _ sensors: [HomeAssistantSensor], previous: [String: String], client: any HTTPClient, timeout: TimeInterval
    ) -> Result<Exports.Delivered, ExportFailure> {
        guard let base = ExportTarget.homeAssistantURL(target.location), let token = target.token else {
            return .failure(ExportFailure("the URL or the token is missing"))
        }
        var sent: [String: String] = [:]
        var count = 0
        let headers = ["Authorization": "Bearer \(token)", "Content-Type": "application/json", "Accept": "application/json"]
        let deadline = Date().addingTimeInterval(timeout)
        /// One request to `/api/` + `path` (a state's, or the API's root); nil when it succeeded.
        func request(_ method: String, _ path: String, _ body: Data?) -> ExportFailure? {
            guard let url = URL(string: "\(base.absoluteString)/api/\(path)") else { return ExportFailure("\(path) makes no URL") }
            do {
                let response = try client.send(method, url, headers: headers, body: body, timeout: max(0.5, deadline.timeIntervalSinceNow))
                switch response.status {
                case 200, 201:
                    // Home Assistant answers with JSON (the state, or "API running."): a web page
                    // is something in front of it — a login page, a proxy — that took nothing.
                    guard method == "DELETE" || (JSONReader.any(response.body) as? [String: Any]).map({ path.isEmpty ? $0["message"] != nil : $0["entity_id"] != nil }) == true else {
                        let what = (response.headers["content-type"] ?? "").lowercased().contains("html") ? "a web page" : "something that is not its API's JSON"
                        return ExportFailure("\(target.shownLocation) answered with \(what), not Home Assistant's API (a login page or a proxy in front of it?): give the address Home Assistant itself answers at")
                    }
                    return nil
                case 404 where method == "DELETE": return nil
                case 401, 403:
                    return ExportFailure("Home Assistant refused the token (HTTP \(response.status)): make a long-lived access token for an administrator on your profile page")
                case 400: return ExportFailure("Home Assistant refused \(path.dropFirst("states/".count)) (HTTP 400)")
                default: return ExportFailure("Home Assistant answered HTTP \(response.status)")
                }
            } catch {
                if let error = error as? HTTPClientError { return ExportFailure("\(error)") }
                return ExportFailure(systemReason(error))
            }
        }
        // With no favorite to post, a first export still proves the address and the token: the
        // API's root answers 200 ("API running.") to a token it takes.
        if previous.isEmpty, sensors.isEmpty, let failure = request("GET", "", nil) { return .failure(failure) }
        for sensor in sensors {
            let body = sensor.restBody
            let digest = ExportState.digest(body)
            sent[sensor.entityID] = digest
            if previous[sensor.entityID] == digest { continue }
            if let failure = request("POST", "states/\(sensor.entityID)", body) { return .failure(failure) }
            count += 1
        }
        for entity in previous.keys.sorted() where sent[entity] == nil {
            if let failure = request("DELETE", "states/\(entity)", nil) { return .failure(failure) }
            count += 1
        }
        return .success((count, sent))
    }
}
