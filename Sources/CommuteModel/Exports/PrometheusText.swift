import Basics
import FoundationEssentials

/// The Prometheus text format as node_exporter's textfile collector reads it: each metric's HELP
/// and TYPE first, its samples in one uninterrupted group, no timestamps (the collector skips a
/// file that has any), label values escaped, the last line ended.
public enum PrometheusText {
    public enum Kind: String, Sendable {
        case gauge, counter
    }

    /// One metric and its samples.
    public struct Family: Sendable, Equatable {
        public var name: String
        public var help: String
        public var kind: Kind
        public var samples: [Sample]

        public init(name: String, help: String, kind: Kind, samples: [Sample]) {
            self.name = name
            self.help = help
            self.kind = kind
            self.samples = samples
        }
    }

    public struct Sample: Sendable, Equatable {
        /// Label names and values, in the order written.
        public var labels: [(String, String)]
        public var value: Double

        public init(labels: [(String, String)] = [], value: Double) {
            self.labels = labels
            self.value = value
        }

        public static func == (lhs: Sample, rhs: Sample) -> Bool {
            lhs.value == rhs.value && lhs.labels.map(\.0) == rhs.labels.map(\.0) && lhs.labels.map(\.1) == rhs.labels.map(\.1)
        }
    }

    /// The file's text.
    public static func render(_ families: [Family]) -> Data {
        var text = ""
        for family in families {
            text += "# HELP \(family.name) \(help(family.help))\n"
            text += "# TYPE \(family.name) \(family.kind.rawValue)\n"
            for sample in family.samples {
                text += family.name
                if !sample.labels.isEmpty {
                    text += "{" + sample.labels.map { "\($0.0)=\"\(label($0.1))\"" }.joined(separator: ",") + "}"
                }
                text += " \(number(sample.value))\n"
            }
        }
        return Data(text.utf8)
    }

    /// A label value: backslash, double quote and newline escaped; other control characters left out.
    public static func label(_ value: String) -> String {
        var out = ""
        for (scalar, shown) in DisplayText.scalars(value) {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || !shown { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// HELP text: backslash and newline escaped.
    static func help(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A whole number without a fraction; `NaN` and infinities as the format spells them.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }
}
