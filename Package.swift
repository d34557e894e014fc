// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "traveltimes",
    products: [
        .executable(name: "traveltimes", targets: ["traveltimes"]),
        .library(name: "CommuteCore", targets: ["CommuteCore"]),
    ],
    targets: [
        // Model, fan-out engine, store and feed: no I/O in the pure parts, no printing anywhere.
        // It never imports FoundationNetworking: libcurl and TLS would load at every start.
        .target(name: "CommuteCore", dependencies: ["CZlib"]),
        // libcurl's easy interface, loaded at run time (the library FoundationNetworking itself
        // uses): C wrappers, because Swift cannot call curl_easy_setopt, a variadic function.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        // zlib's raw inflate, loaded at run time, for the zip archives GTFS timetables come in.
        .target(name: "CZlib", linkerSettings: [.linkedLibrary("dl")]),
        // The HTTP client over it, and `traveltimes fetch-helper`: the same program run as a child
        // for requests (a feed GET, a webhook POST), so that the commands cron runs every minute
        // never load the networking stack, and a request that overruns can be killed.
        .target(name: "CommuteNetworking", dependencies: ["CommuteCore", "CCurl"]),
        // Argument parsing, commands, output formatting and exit codes.
        // The sample feed for `demo` travels inside the binary (a link to Fixtures/, embedded as bytes).
        .target(
            name: "TraveltimesCLI", dependencies: ["CommuteCore"],
            resources: [.embedInCode("Resources/sample-feed.json")]),
        // The executable is a few lines: it hands argv and the environment to TraveltimesCLI, or
        // to the fetch helper.
        .executableTarget(name: "traveltimes", dependencies: ["TraveltimesCLI", "CommuteNetworking"]),
        // Benchmarks (Scripts/bench) and the bare Foundation baseline they are compared with.
        .executableTarget(name: "traveltimes-bench", dependencies: ["CommuteCore"]),
        .executableTarget(name: "foundation-hello"),
        .testTarget(name: "CommuteCoreTests", dependencies: ["CommuteCore"]),
        .testTarget(
            name: "TraveltimesTests",
            dependencies: ["TraveltimesCLI", "CommuteCore", "CommuteNetworking", "traveltimes"]
        ),
    ]
)
