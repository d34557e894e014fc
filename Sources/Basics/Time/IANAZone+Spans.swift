/// The spans of one offset: what a reader of many nearby instants (a year of mornings) looks up
/// once for each change of the clock rather than once for each instant.
extension IANAZone {
    /// The offset at an instant, and instants around it that share it: from the transition before
    /// it to the one after, where the file's table or a fixed rule says so; past the table under a
    /// yearly rule, the instant alone.
    public func offsetSpan(at instant: Int) -> (offset: Int, span: ClosedRange<Int>) { rules.offsetSpan(at: instant) }
}

extension IANAZone.Rules {
    /// `IANAZone.offsetSpan`: before the first transition, the initial offset; between two, the
    /// earlier's; past the last, the rule's.
    func offsetSpan(at instant: Int) -> (offset: Int, span: ClosedRange<Int>) {
        guard let first = transitions.first else {
            switch footer {
            case .yearly?: return (offset(at: instant), instant...instant)
            case .fixed(let offset)?: return (offset, Int.min...Int.max)
            case nil: return (initial, Int.min...Int.max)
            }
        }
        guard instant >= first else { return (initial, Int.min...(first - 1)) }
        let last = transitions.count - 1
        if instant >= transitions[last], let footer {
            guard case .fixed(let offset) = footer else { return (footer.offset(at: instant), instant...instant) }
            return (offset, transitions[last]...Int.max)
        }
        let index = lastTransition(atOrBefore: instant)
        return (offsets[index], transitions[index]...(index < last ? transitions[index + 1] - 1 : Int.max))
    }

    /// The index of the last transition at or before `instant` (at or after the first).
    func lastTransition(atOrBefore instant: Int) -> Int {
        var low = 0
        var high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle] <= instant { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
