import CommuteCore
import FoundationEssentials

extension Commands {
    enum DemoCommand {
        static let command = Command(
            name: "demo",
            summary: "Try the whole main job on the bundled sample feed, in a throwaway store",
            options: [source],
            discussion: """
                Refreshes from the sample, favorites three routes, adds the morning and evening presets and
                prints the pending alerts — as if it were \(sampleMoment) in \(sampleZone), when the
                sample was captured. The sample (WSDOT's feed, 163 routes) is inside the binary: the demo
                works from any copy, anywhere. Nothing outside the throwaway store is touched.
                """
        ) { invocation in
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("traveltimes-demo-\(UUID().uuidString.prefix(8))").path
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let source: String
            if let given = try invocation.value(Self.source) {
                source = given
            } else {
                source = directory + "/sample-feed.json"
                do {
                    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                    try Data(PackageResources.sample_feed_json).write(to: URL(fileURLWithPath: source))
                } catch {
                    throw StoreError.io(path: source, reason: "cannot write the sample feed: \(systemReason(error))")
                }
            }
            var environment = invocation.environment
            environment[.home] = directory
            environment[.timeZone] = sampleZone
            environment[.cap] = nil
            let io = invocation.io
            io.out("A throwaway store in \(directory), as if it were \(sampleMoment) (\(sampleZone)).")
            let steps: [[String]] = [
                ["refresh", "--source", source, "--now", sampleMoment],
                ["routes", "--search", "seattle-", "--now", sampleMoment],
                ["favorites", "add", "1", "96", "70"],
                ["favorites"],
                ["schedule", "add", "--preset", "morning", "--now", sampleMoment],
                ["schedule", "add", "--preset", "evening", "--route", "70,96", "--now", sampleMoment],
                ["schedule", "list"],
                ["pending", "--now", sampleMoment],
            ]
            for step in steps {
                io.out("")
                io.out("$ traveltimes \(step.map(quoted).joined(separator: " "))")
                let code = CLI.run(step, environment: environment, io: io, clock: invocation.clock)
                guard code == .success else { throw DemoFailed(code: code) }
            }
            io.out("")
            io.out(nextSteps)
        }

        private static func quoted(_ word: String) -> String {
            word.contains(" ") ? "'\(word)'" : word
        }

        /// What turns the demo into real alerts; the README's "Your first real alert" takes each in turn.
        static let nextSteps = """
            That was the sample; the demo store is thrown away now, and nothing else was touched.
            Three steps make it real:
              1. Live times: traveltimes config set source \(FeedSource.wsdotURL)
                 with traveltimes config set access-code - (a free code: wsdot.wa.gov/traffic/api),
                 or, anywhere: traveltimes config set here-key - and traveltimes route add (see route add --help)
              2. Where alerts go: \(recommendedNotifier) (or notify add --help)
              3. Run unattended: traveltimes install systemd --enable (or install cron), then traveltimes doctor
            """

        static let sampleZone = WSDOTFeed.timeZone

        /// When the sample was captured, and where.
        static let sampleMoment = "2025-11-04T16:00:00-08:00"

        static let source = Option<String>("--source", value: "FILE", help: "Feed to use (default: the bundled sample)", values: .file)
    }
}
