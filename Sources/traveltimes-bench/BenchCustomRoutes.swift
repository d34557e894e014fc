import CommuteCore
@_spi(Store) import CommuteStore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

// 2e. A refresh of 500 custom routes from the loopback stand-in, every one asked (--all): one
// fetch helper serving every request, four at a time, over kept connections.
@MainActor
func benchCustomRoutes() {
    guard let providers = LoopbackServer(script: "Tests/Support/provider_server.py", arguments: []) else { return }
        let five = home + "-500"
        defer { try? FileManager.default.removeItem(atPath: five) }
        var providerEnvironment = environment
        providerEnvironment["TRAVELTIMES_HOME"] = five
        do {
            let store = try Store(directory: five)
            try store.updateCustomRoutes { routes in
                routes = (0..<500).compactMap { index -> Route? in
                    guard let from = Coordinate(latitude: 47 + Double(index % 90) / 100, longitude: -122.3 + Double(index / 90) / 100),
                        let to = Coordinate(latitude: 47.5, longitude: -122 - Double(index) / 1000)
                    else { return nil }
                    return Route(
                        id: "custom-\(index)", name: "Custom \(index)", description: nil, currentMinutes: 20, averageMinutes: 20,
                        distanceMiles: 9.5, updatedAt: capturedAt,
                        custom: Route.Custom(provider: RouteProvider.allCases[index % 3], from: from, to: to, fetchedAt: capturedAt, triedAt: capturedAt))
                }
            }
        } catch {
            FileHandle.standardError.write(Data("cannot write 500 custom routes: \(error)\n".utf8))
            exit(1)
        }
        for provider in RouteProvider.keyed {
            providerEnvironment[provider.baseURLVariable] = "http://127.0.0.1:\(providers.port)"
            if let variable = provider.keyVariable { providerEnvironment[variable] = "bench-key-\(provider.rawValue)" }
            must(["config", "set", provider.budgetSetting, "1000000"], environment: providerEnvironment)
        }
        var fewer = options
        fewer.runs = min(options.runs, 5)
        let (customRefresh, _) = measure(fewer, options.binary, ["refresh", "--all", "--quiet", "--now", now], environment: providerEnvironment)
        report("traveltimes refresh --all, 500 custom routes, loopback", milliseconds(customRefresh), "target ≤ 1.5 s",
               customRefresh <= 1.5)
        providers.stop()
}
