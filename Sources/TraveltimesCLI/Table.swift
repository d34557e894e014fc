import CommuteCore

/// Plain-text columns, padded to the widest cell. The last column is never padded.
struct Table {
    enum Alignment { case left, right }

    var alignments: [Alignment]
    var rows: [[String]] = []

    init(_ alignments: [Alignment]) { self.alignments = alignments }

    /// Adds a row. Each cell is one line: a name with a line break or an escape sequence in it
    /// cannot break the table or reach the terminal.
    mutating func add(_ row: [String]) { rows.append(row.map(DisplayText.line)) }

    func render() -> [String] {
        var widths = [Int](repeating: 0, count: alignments.count)
        for row in rows {
            for (column, cell) in row.enumerated() where column < widths.count {
                widths[column] = max(widths[column], cell.count)
            }
        }
        return rows.map { row in
            row.enumerated().map { column, cell in
                guard column < row.count - 1 else {
                    return alignments[column] == .right ? String(repeating: " ", count: widths[column] - cell.count) + cell : cell
                }
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return alignments[column] == .right ? padding + cell : cell + padding
            }.joined(separator: "  ")
        }
    }
}
