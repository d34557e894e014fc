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
        .target(name: "CommuteCore"),
        // Argument parsing, commands, output formatting and exit codes.
        .target(name: "TraveltimesCLI", dependencies: ["CommuteCore"]),
        // The executable is a few lines: it hands argv and the environment to TraveltimesCLI.
        .executableTarget(name: "traveltimes", dependencies: ["TraveltimesCLI"]),
        // Benchmarks (Scripts/bench) and the bare Foundation baseline they are compared with.
        .executableTarget(name: "traveltimes-bench", dependencies: ["CommuteCore"]),
        .executableTarget(name: "foundation-hello"),
        .testTarget(name: "CommuteCoreTests", dependencies: ["CommuteCore"]),
        .testTarget(
            name: "TraveltimesTests",
            dependencies: ["TraveltimesCLI", "CommuteCore", "traveltimes"]
        ),
    ]
)
