import CommuteCore
import Foundation

extension Commands {
    static let refresh = Command(
        name: "refresh",
        summary: "Fetch travel times, save them, and reschedule every alert with them",
        options: [
            OptionSpec(name: "--source", value: "FILE", help: "Feed to read (else $TRAVELTIMES_SOURCE)"),
            Options.now,
        ],
        discussion: """
            The feed is WSDOT's GetTravelTimesAsJson. A feed that cannot be read or decoded changes
            nothing: the route cache and the pending alerts stay exactly as they were.
            Run it from cron every 15 minutes:  */15 * * * * traveltimes refresh
            """
    ) { invocation in
        guard let source = invocation.arguments.value("--source") ?? invocation.environment["TRAVELTIMES_SOURCE"],
            !source.isEmpty
        else {
            throw invocation.usage("No feed source: pass --source FILE or set TRAVELTIMES_SOURCE.")
        }
        let commute = try invocation.commute()
        let result = try commute.refresh(feed: FeedLoader.load(source), source: source)
        var line = "Refreshed \(result.routeCount) routes from \(source)"
        if result.noData > 0 { line += " (\(result.noData) without data)" }
        let summary = result.reschedule
        invocation.io.out(line + "; \(summary.scheduled) alerts scheduled (cap \(summary.cap)).")
        for id in result.missingFavorites {
            invocation.io.warn("favourite \(id) is not in this feed: it stays a favourite and shows as unavailable")
        }
        invocation.report(summary)
    }
}

/// Reads a feed from a local file.
enum FeedLoader {
    static func load(_ source: String) throws -> Data {
        if source.hasPrefix("http://") || source.hasPrefix("https://") {
            throw FeedError.unreadable(path: source, reason: "HTTP sources are not supported yet; save the feed to a file")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: source))
        } catch {
            let reason = (error as? CocoaError)?.code == .fileReadNoSuchFile
                ? "no such file" : (error as NSError).localizedDescription
            throw FeedError.unreadable(path: source, reason: reason)
        }
    }
}
