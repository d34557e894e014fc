import FoundationEssentials

/// A Prometheus textfile of each favorite's minutes (`export add prometheus FILE`), for
/// node_exporter's textfile collector.
enum PrometheusExport: FileExport {
    static let form = "FILE"
    static let help = [
        "node_exporter's textfile collector format (FILE ends in .prom):",
        "    traveltimes_route_seconds, _route_typical_seconds,",
        "    _last_refresh_timestamp_seconds, _provider_requests_total, _alerts_total.",
    ]

    static var content: KeyPath<Exports.Content, Data> { \.metrics }
}
