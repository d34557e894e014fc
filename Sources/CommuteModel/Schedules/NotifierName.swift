/// The name a notifier is given and a schedule, a watch or health alerts name it by.
public enum NotifierName {
    /// Whether `text` may name a notifier: a letter, then letters, digits, - or _, 32 at most.
    public static func isValid(_ text: String) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter, text.count <= 32 else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}
