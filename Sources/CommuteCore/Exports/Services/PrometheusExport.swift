import FoundationEssentials

/// A Prometheus textfile of each favorite's minutes (`export add prometheus FILE`), for
/// node_exporter's textfile collector.
enum PrometheusExport: FileExport {
    static var content: KeyPath<Exports.Content, Data> { \.metrics }
}
