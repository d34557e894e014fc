@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

/// Splits `text` fed in pieces of `pieceSize` bytes: the elements as text, with their offsets.
private func split(_ text: String, pieceSize: Int, maximumElementSize: Int = .max) throws -> [(String, Int)] {
    let bytes = Array(text.utf8)
    var splitter = JSONArraySplitter(maximumElementSize: maximumElementSize)
    var elements: [(String, Int)] = []
    var start = 0
    repeat {
        let end = min(start + pieceSize, bytes.count)
        try bytes[start..<end].withUnsafeBufferPointer { piece in
            try splitter.consume(piece) { element, offset in elements.append((String(decoding: element, as: UTF8.self), offset)) }
        }
        start = end
    } while start < bytes.count
    try splitter.finish()
    return elements
}

@Suite(.ownThreads) struct JSONArraySplitterTests {
    static let tricky = #"""
         [ {"a": "x,]}\"{[", "b": [1, [2, {"c": "\\"}]]},
        "plain \" string ]", -12.5e3,true ,null,
          [], {}, "", {"d": "\u00e9 é"} ]
        """#
    static let expected = [
        #"{"a": "x,]}\"{[", "b": [1, [2, {"c": "\\"}]]}"#, #""plain \" string ]""#, "-12.5e3", "true", "null",
        "[]", "{}", #""""#, #"{"d": "\u00e9 é"}"#,
    ]

    @Test(arguments: [1, 2, 3, 5, 7, 16, 64, 100_000])
    func elementsComeOutWholeWhateverThePieces(pieceSize: Int) throws {
        let elements = try split(Self.tricky, pieceSize: pieceSize)
        #expect(elements.map(\.0) == Self.expected)
        // Each offset is where the element starts in the whole input.
        let bytes = Array(Self.tricky.utf8)
        for (text, offset) in elements {
            #expect(Array(bytes[offset..<(offset + text.utf8.count)]) == Array(text.utf8))
        }
    }

    @Test(arguments: [1, 4, 100_000])
    func everyElementIsValidJSONThatTheReaderAccepts(pieceSize: Int) throws {
        for (element, _) in try split(Self.tricky, pieceSize: pieceSize) {
            #expect(throws: Never.self) { try JSONReader.read(Data(element.utf8)) { try $0.skipValue() } }
        }
    }

    @Test func anEmptyArrayHasNoElements() throws {
        #expect(try split("  [ \n ]\n", pieceSize: 1).isEmpty)
    }

    @Test(arguments: [
        ("", JSONReadError.Kind.syntax, "unexpected end of data", 0),
        ("   ", .syntax, "unexpected end of data", 3),
        ("<html>", .syntax, "unexpected character '<'", 0),
        (#"{"routes": []}"#, .type, "expected an array", 0),
        (" 12", .type, "expected an array", 1),
        (#"[{"a": 1}"#, .syntax, "the array is not closed", 9),
        (#"[{"a": "1}]"#, .syntax, "the array is not closed", 11),
        ("[1,]", .syntax, "expected a value after ','", 3),
        ("[1 2]", .syntax, "expected ',' or ']'", 3),
        (#"[{} {}]"#, .syntax, "expected ',' or ']'", 4),
        ("[1] x", .syntax, "unexpected text after the end", 4),
        ("[1][2]", .syntax, "unexpected text after the end", 3),
    ])
    func theArrayAroundTheElementsIsChecked(text: String, kind: JSONReadError.Kind, message: String, offset: Int) {
        for pieceSize in [1, 100] {
            do {
                _ = try split(text, pieceSize: pieceSize)
                Issue.record("split \(text)")
            } catch let error as JSONReadError {
                #expect(error.kind == kind, "\(error)")
                #expect(error.message.contains(message), "\(error)")
                #expect(error.offset == offset, "\(error)")
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    @Test func aBrokenElementIsHandedOverForTheReaderToRefuse() throws {
        // The splitter follows brackets, not their kinds: the reader finds the mismatch.
        let elements = try split(#"[{"a": [1}], 2]"#, pieceSize: 3)
        #expect(elements.map(\.0) == [#"{"a": [1}]"#, "2"])
        #expect(throws: JSONReadError.self) { try JSONReader.read(Data(elements[0].0.utf8)) { try $0.skipValue() } }
    }

    @Test(arguments: [1, 3, 100])
    func anElementOverTheLimitIsRefusedBeforeItIsHeldWhole(pieceSize: Int) throws {
        let text = #"[{"a": "12345"}, "0123456789", {"b": "0123456789012"}]"#
        // The first two elements (14 and 12 bytes) pass; the third (22 bytes) is refused where it starts.
        let error = #expect(throws: JSONArraySplitter.ElementTooLarge.self) {
            try split(text, pieceSize: pieceSize, maximumElementSize: 16)
        }
        #expect(error?.offset == 31 && error?.limit == 16)
        #expect(try split(text, pieceSize: pieceSize, maximumElementSize: 22).count == 3)
    }

    @Test func errorsFromTheCallerPassThroughAndStopTheSplit() throws {
        struct Stop: Error {}
        var seen = 0
        var splitter = JSONArraySplitter()
        #expect(throws: Stop.self) {
            try Array("[1, 2, 3]".utf8).withUnsafeBufferPointer { piece in
                try splitter.consume(piece) { _, _ in
                    seen += 1
                    if seen == 2 { throw Stop() }
                }
            }
        }
        #expect(seen == 2)
    }
}
