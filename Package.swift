// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "traveltimes",
    products: [
        .executable(name: "traveltimes", targets: ["traveltimes"]),
        .library(name: "CommuteCore", targets: ["CommuteCore"]),
    ],
    targets: [
        // The layers of the product, each depending only on those above it here and importing what
        // it uses; the compiler keeps them apart. None prints, none imports FoundationNetworking
        // (libcurl and TLS would load at every start), none links ICU (only FoundationEssentials).
        //
        // Text, JSON, the tz database, processes and the fetch helper's client: nothing of commutes.
        .target(name: "Basics"),
        // The pure model: schedules, weekdays, times of day, the zoned calendar, routes, the plan
        // (fan-out and its cap, leave times, alert identities), usual times. No I/O.
        .target(name: "CommuteModel", dependencies: ["Basics"]),
        // The store: files, locks, atomic and versioned documents, and the model's documents.
        .target(name: "CommuteStore", dependencies: ["CommuteModel"]),
        // Where travel times come from: the WSDOT feed, routing providers, GTFS and GTFS-realtime.
        .target(name: "CommuteSources", dependencies: ["CommuteStore", "CZlib"]),
        // Every travel time measured, and what is usual.
        .target(name: "CommuteHistory", dependencies: ["CommuteStore", "CPrefetch"]),
        // Alerts on their way: channels, notifiers, the ledger, quiet hours, open alerts.
        .target(name: "CommuteDelivery", dependencies: ["CommuteStore"]),
        // The door: `Commute` opens the store once and hands out the features. It alone re-exports
        // (Exports.swift): the layers above, but not the store, which no command can name.
        .target(name: "CommuteCore", dependencies: ["CommuteSources", "CommuteHistory", "CommuteDelivery"]),
        // libcurl's easy interface, loaded at run time (the library FoundationNetworking itself
        // uses): C wrappers, because Swift cannot call curl_easy_setopt, a variadic function.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        // zlib's raw inflate, loaded at run time, for the zip archives GTFS timetables come in.
        .target(name: "CZlib", linkerSettings: [.linkedLibrary("dl")]),
        // The processor's prefetch hint (a header), for reading a year of history span by span.
        .target(name: "CPrefetch"),
        // The HTTP client over it, and `traveltimes fetch-helper`: the same program run as a child
        // for requests (a feed GET, a webhook POST), so that the commands cron runs every minute
        // never load the networking stack, and a request that overruns can be killed.
        .target(name: "CommuteNetworking", dependencies: ["Basics", "CCurl"]),
        // Argument parsing, commands, output formatting and exit codes.
        // The sample feed for `demo` travels inside the binary (a link to Fixtures/, embedded as bytes).
        .target(
            name: "TraveltimesCLI", dependencies: ["CommuteCore"],
            resources: [.embedInCode("Resources/sample-feed.json")]),
        // The executable is a few lines: it hands argv and the environment to TraveltimesCLI, or
        // to the fetch helper.
        .executableTarget(name: "traveltimes", dependencies: ["TraveltimesCLI", "CommuteNetworking"]),
        // Benchmarks (Scripts/bench) and the bare Foundation baseline they are compared with.
        // The benchmarks build stores of every size, so they alone beside the core open the store.
        .executableTarget(name: "traveltimes-bench", dependencies: ["CommuteCore", "CommuteStore", "CommuteDelivery", "CommuteHistory"]),
        .executableTarget(name: "foundation-hello"),
        // The tests' own threads: most tests wait on a child or a stand-in, and Swift's cooperative
        // pool has one thread per core.
        .target(name: "TestThreads", path: "Tests/TestThreads"),
        .testTarget(
            name: "CommuteCoreTests",
            dependencies: ["TestThreads", "Basics", "CommuteModel", "CommuteStore", "CommuteSources", "CommuteHistory", "CommuteDelivery", "CommuteCore"]),
        .testTarget(
            name: "TraveltimesTests",
            dependencies: ["TestThreads", "TraveltimesCLI", "CommuteCore", "CommuteStore", "CommuteDelivery", "CommuteSources", "CommuteNetworking", "traveltimes"]
        ),
    ]
)
