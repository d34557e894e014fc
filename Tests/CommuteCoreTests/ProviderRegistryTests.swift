import Basics
@_spi(Store) @testable import CommuteCore
@testable import CommuteModel
import Foundation
import TestThreads
import Testing

/// The one list of routing providers: each is its file's descriptor, and every setting, variable,
/// history byte and request comes from it.
@Suite(.ownThreads) struct ProviderRegistryTests {
    /// History's bytes are on disk in every store: a provider's may never change. 0 and 4 are the
    /// feeds'.
    @Test func historyBytesStayWhereTheyWere() {
        let bytes = Dictionary(uniqueKeysWithValues: ReadingSource.allCases.map { ($0.name, $0.rawValue) })
        #expect(bytes == ["wsdot": 0, "tomtom": 1, "here": 2, "google": 3, "transit": 4, "transitous": 5, "osrm": 6, "valhalla": 7])
        for source in ReadingSource.allCases {
            #expect(ReadingSource(rawValue: source.rawValue) == source && ReadingSource(name: source.name) == source)
        }
        #expect(ReadingSource(rawValue: 8) == nil && ReadingSource(rawValue: 15) == nil && ReadingSource(name: "bing") == nil)
    }

    @Test func everyProviderHasItsOwnVariablesSettingsAndAWorkingRequest() throws {
        let providers = RouteProvider.allCases
        let variables = providers.flatMap(\.variables).map(\.name)
        #expect(Set(variables).count == variables.count, "a variable is claimed twice: \(variables)")
        #expect(Set(providers.map(\.descriptor.historyCode)).count == providers.count)
        let origin = try #require(Coordinate("47.6,-122.3")), destination = try #require(Coordinate("47.9,-122.2"))
        let query = RoutingQuery(time: Date(timeIntervalSince1970: 1_762_272_000), arriveBy: false)
        for provider in providers {
            let descriptor = provider.descriptor
            #expect(![0, 4].contains(descriptor.historyCode), "\(provider) takes a feed's history byte")
            #expect(descriptor.historyCode < 16, "\(provider)'s history byte does not fit a record's four bits")
            #expect(descriptor.baseURLVariable.name == "TRAVELTIMES_\(provider.rawValue.uppercased())_URL")
            #expect(!descriptor.baseURLVariable.isSecret)
            #expect(RoutingAPI.baseURL(descriptor.defaultBaseURL) == descriptor.defaultBaseURL)
            // Keyed: live traffic and a secret key; keyless: a service one may host oneself.
            #expect(provider.needsKey == (descriptor.mode == .liveTraffic))
            #expect(descriptor.keyVariable?.isSecret ?? true)
            #expect(provider.needsKey == (descriptor.software == nil))
            if let key = descriptor.keyVariable { #expect(EnvironmentVariable.secrets.contains(key)) }
            // Its service asks at the base it is given, and nowhere else.
            let request = try #require(provider.service.request(from: origin, to: destination, key: "KEY", base: "http://127.0.0.1:9", query: query))
            #expect(request.url.absoluteString.hasPrefix("http://127.0.0.1:9/"), "\(request.url)")
            // Every setting a provider has is one the settings know.
            let settings = [provider.budgetSetting, Setting.providerURL(provider).name] + (provider.needsKey ? [provider.keySetting] : [])
            for name in settings { #expect(Setting(name: name) != nil, "\(name) is not a setting") }
            // Every variable is documented.
            for variable in provider.variables { #expect(EnvironmentVariable.documented.contains(variable)) }
        }
    }

    @Test func noChildSeesASecret() {
        var environment = ["PATH": "/usr/bin", "TRAVELTIMES_TOMTOM_URL": "http://127.0.0.1:9"]
        for secret in EnvironmentVariable.secrets { environment[secret.name] = "s3cret" }
        let child = ChildEnvironment(environment).variables
        #expect(child == ["PATH": "/usr/bin", "TRAVELTIMES_TOMTOM_URL": "http://127.0.0.1:9"])
        #expect(Set(EnvironmentVariable.secrets.map(\.name)) == [
            "TRAVELTIMES_SOURCE", "WSDOT_ACCESS_CODE", "TOMTOM_API_KEY", "HERE_API_KEY", "GOOGLE_MAPS_API_KEY",
        ])
        let documented = EnvironmentVariable.documented.map(\.name)
        #expect(Set(documented).count == documented.count, "a variable is listed twice")
    }
}
