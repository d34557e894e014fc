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
                widths[column] = max(widths[column], Self.width(cell))
            }
        }
        // Padding is cut from one run of spaces, not made anew for every cell.
        let spaces = String(repeating: " ", count: widths.max() ?? 0)
        return rows.map { row in
            var line = ""
            line.reserveCapacity(widths.reduce(2 * widths.count, +))
            for (column, cell) in row.enumerated() {
                if column > 0 { line += "  " }
                let padding = max(0, (column < widths.count ? widths[column] : 0) - Self.width(cell))
                let isLast = column == row.count - 1
                switch column < alignments.count ? alignments[column] : .left {
                case .right:
                    if padding > 0 { line += spaces.prefix(padding) }
                    line += cell
                case .left:
                    line += cell
                    if !isLast, padding > 0 { line += spaces.prefix(padding) }
                }
            }
            return line
        }
    }

    /// The columns a cell takes: its characters, counted byte by byte when it is ASCII (nearly
    /// always: a listing may have thousands of rows).
    private static func width(_ cell: String) -> Int {
        cell.utf8.allSatisfy { $0 < 0x80 } ? cell.utf8.count : cell.count
    }
}
