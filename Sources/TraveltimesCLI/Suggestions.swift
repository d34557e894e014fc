/// "Did you mean …?" for mistyped commands and flags.
enum Suggestions {
    /// The closest candidate within a small edit distance, or one that starts with the text.
    static func closest(to text: String, in candidates: [String]) -> String? {
        let needle = text.lowercased()
        let scored = candidates.map { ($0, distance(needle, $0.lowercased())) }
        let limit = max(1, min(3, needle.count / 3 + 1))
        if let best = scored.filter({ $0.1 <= limit }).min(by: { $0.1 < $1.1 }) { return best.0 }
        return needle.count >= 3 ? candidates.first { $0.lowercased().hasPrefix(needle) } : nil
    }

    /// Levenshtein distance (insertions, deletions, substitutions).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
