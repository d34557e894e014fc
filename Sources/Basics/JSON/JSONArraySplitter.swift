/// Splits a top-level JSON array that arrives in pieces into the bytes of its elements, so that an
/// array of any length is read through a small window of memory instead of whole.
///
/// Only the array's own structure is checked here — the brackets, the commas between elements,
/// where each element ends (strings and nesting are followed so that a `,` or `]` inside one does
/// not end it). Each element is handed over whole, with its offset in the input, for `JSONReader`
/// to read and check. Not thread-safe: one splitter per input.
public struct JSONArraySplitter {
    private enum State {
        /// Before the `[`.
        case start
        /// After the `[`: an element or the closing `]`.
        case firstElement
        /// After a `,`: an element must follow.
        case nextElement
        /// Inside an element.
        case element
        /// After an element: `,` or `]`.
        case afterElement
        /// After the `]`: only whitespace may follow.
        case end
    }

    private var state = State.start
    /// Bytes consumed before the current piece.
    private var consumed = 0
    /// The current element's bytes, when it spans pieces.
    private var carried: [UInt8] = []
    /// Where the current element started in the input.
    private var elementOffset = 0
    /// Open brackets inside the current element, and whether it is a bare scalar (`12`, `null`).
    private var depth = 0
    private var scalar = false
    private var inString = false
    private var escaped = false
    /// The most bytes one element may take: what bounds the memory an input can make it hold.
    public let maximumElementSize: Int

    /// An element longer than the splitter's limit, at `offset` in the input.
    public struct ElementTooLarge: Error, Equatable, Sendable {
        public var offset: Int
        public var limit: Int
    }

    public init(maximumElementSize: Int = .max) {
        self.maximumElementSize = maximumElementSize
    }

    /// Reads the next piece of input, calling `element` with each element that ends in it and that
    /// element's offset in the whole input. Errors from `element` pass through unchanged.
    public mutating func consume(
        _ piece: UnsafeBufferPointer<UInt8>, element: (UnsafeBufferPointer<UInt8>, Int) throws -> Void
    ) throws {
        var index = 0
        // Where the current element's bytes begin within this piece.
        var start = 0
        while index < piece.count {
            let byte = piece[index]
            switch state {
            case .element:
                let finished = scan(byte)
                if finished == .before || finished == .after {
                    let end = finished == .after ? index + 1 : index
                    try deliver(piece, start..<end, element)
                    state = .afterElement
                    if finished == .after { index += 1 }
                    continue
                }
            case .start:
                if !Self.isWhitespace(byte) {
                    guard byte == UInt8(ascii: "[") else { throw notAnArray(byte, at: consumed + index) }
                    state = .firstElement
                }
            case .firstElement, .nextElement:
                if Self.isWhitespace(byte) { break }
                if byte == UInt8(ascii: "]") {
                    guard state == .firstElement else { throw syntaxError("expected a value after ','", at: consumed + index) }
                    state = .end
                    break
                }
                state = .element
                start = index
                elementOffset = consumed + index
                escaped = false
                // The first byte says what the element is: a container, a string, or a bare
                // scalar (`12`, `null`) that ends at the next delimiter.
                inString = byte == UInt8(ascii: "\"")
                depth = byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") ? 1 : 0
                scalar = depth == 0 && !inString
            case .afterElement:
                switch byte {
                case 0x20, 0x0A, 0x0D, 0x09: break
                case UInt8(ascii: ","): state = .nextElement
                case UInt8(ascii: "]"): state = .end
                default: throw syntaxError("expected ',' or ']'", at: consumed + index)
                }
            case .end:
                guard Self.isWhitespace(byte) else {
                    throw syntaxError("unexpected text after the end of the JSON value", at: consumed + index)
                }
            }
            index += 1
        }
        if state == .element {
            try checkSize(carried.count + piece.count - start)
            carried.append(contentsOf: UnsafeBufferPointer(rebasing: piece[start..<piece.count]))
        }
        consumed += piece.count
    }

    /// Ends the input: throws unless the array was closed.
    public mutating func finish() throws {
        switch state {
        case .end: return
        case .start: throw syntaxError("unexpected end of data", at: consumed)
        default: throw syntaxError("unexpected end of data (the array is not closed)", at: consumed)
        }
    }

    // MARK: Inside an element

    private enum Scan { case inside, before, after }

    /// Follows one byte of an element: whether the element ends before it (a scalar's delimiter)
    /// or with it (the bracket or quote that closes it).
    private mutating func scan(_ byte: UInt8) -> Scan {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
                if depth == 0 { return .after }
            }
            return .inside
        }
        switch byte {
        case UInt8(ascii: "\""):
            // A quote after a bare scalar (`12"`) ends it; what follows is then refused.
            if scalar { return .before }
            inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            if scalar { return .before }
            depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            if scalar { return .before }
            depth -= 1
            if depth == 0 { return .after }
        case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09:
            if scalar { return .before }
        default:
            break
        }
        return .inside
    }

    private mutating func deliver(
        _ piece: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ element: (UnsafeBufferPointer<UInt8>, Int) throws -> Void
    ) throws {
        try checkSize(carried.count + range.count)
        if carried.isEmpty {
            try element(UnsafeBufferPointer(rebasing: piece[range]), elementOffset)
        } else {
            carried.append(contentsOf: UnsafeBufferPointer(rebasing: piece[range]))
            try carried.withUnsafeBufferPointer { try element($0, elementOffset) }
            carried.removeAll(keepingCapacity: true)
        }
    }

    private func checkSize(_ size: Int) throws {
        guard size <= maximumElementSize else { throw ElementTooLarge(offset: elementOffset, limit: maximumElementSize) }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private func notAnArray(_ byte: UInt8, at offset: Int) -> JSONReadError {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "\""), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            JSONReadError(kind: .type, message: "expected an array", offset: offset)
        default:
            syntaxError("unexpected character \(JSONReadError.describe(byte))", at: offset)
        }
    }

    private func syntaxError(_ message: String, at offset: Int) -> JSONReadError {
        JSONReadError(kind: .syntax, message: message, offset: offset)
    }
}
