/// The product as it names itself to the services it asks: its name, its version, and where to
/// learn about it.
public enum Product {
    public static let name = "traveltimes"
    public static let version = "0.4.0"
    /// Where the project is described: the contact a User-Agent gives when the user set none.
    public static let url = "https://github.com/traveltimes/traveltimes"

    /// `traveltimes/0.4.0 (+mailto:me@example.org)`: what every request to a public service carries,
    /// as Transitous's and Nominatim's policies ask — the application, its version, and a way to
    /// reach whoever runs it (`config set contact`), else the project. An e-mail address becomes a
    /// `mailto:` URL; anything that could break the header line is left out.
    public static func userAgent(contact: String?) -> String {
        var reach = url
        if let contact = contact?.trimmingWhitespace(), !contact.isEmpty, isValidContact(contact) {
            reach = contact.contains("://") || contact.hasPrefix("mailto:") ? contact : "mailto:\(contact)"
        }
        return "\(name)/\(version) (+\(reach))"
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
