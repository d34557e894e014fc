/// The product as it names itself to the services it asks: its name and its version.
public enum Product {
    public static let name = "traveltimes"
    public static let version = "0.4.0"

    /// `traveltimes/0.4.0 (+mailto:me@example.org)`: what every request to a public service carries,
    /// as Transitous's and Nominatim's policies ask — the application, its version, and a way to
    /// reach whoever runs it (`config set contact`; `doctor` asks for one). No address is made up
    /// in its place: with none set, the request says only what it is. An e-mail address becomes a
    /// `mailto:` URL; anything that could break the header line is left out.
    /// Without a contact, `install` (an install's own token) keeps the User-Agent apart from
    /// every other install's: the operators limit per User-Agent, and an identical one everywhere
    /// would throttle every user together.
    public static func userAgent(contact: String?, install: String? = nil) -> String {
        if let contact = contact?.trimmingWhitespace(), !contact.isEmpty, isValidContact(contact) {
            let reach = contact.contains("://") || contact.hasPrefix("mailto:") ? contact : "mailto:\(contact)"
            return "\(name)/\(version) (+\(reach))"
        }
        return "\(name)/\(version)" + (install.map { " (install \($0))" } ?? "")
    }

    /// An install's token: 8 hexadecimal digits of a hash of the machine's ID and the store's
    /// path — the same for every run of one store on one machine, unlike any other's, and
    /// revealing neither.
    public static func installToken(store: String, machineID: String?) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in ((machineID ?? "") + "|" + store).utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(String(hash, radix: 16).suffix(8))
    }

    /// `/etc/machine-id`, when it can be read.
    public static func machineID() -> String? {
        guard let data = FileManager.default.contents(atPath: "/etc/machine-id"), data.count <= 256 else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingWhitespace()
        return text.isEmpty ? nil : text
    }

    /// An e-mail address or an http(s) URL, printable ASCII without spaces or parentheses, at most
    /// 200 characters.
    public static func isValidContact(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 200,
            text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "(" && $0 != ")" })
        else { return false }
        let lower = text.lowercased()
        if lower.hasPrefix("https://") || lower.hasPrefix("http://") { return text.count > 8 }
        if lower.hasPrefix("mailto:") { return text.dropFirst(7).contains("@") }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !text.contains("/")
    }
}
