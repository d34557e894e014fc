@testable import CommuteDelivery
import TestThreads
import Testing

/// The one list of notification services: every reader, help line and sender comes from it.
@Suite(.ownThreads) struct ChannelRegistryTests {
    /// A URL of each service, by its family's scheme.
    static let samples = [
        "ntfy": "ntfys://ntfy.sh/commute", "gotify": "gotifys://gotify.example.com/AbCdEf123",
        "pover": "pover://u123456789@a123456789", "tgram": "tgram://123456:ABC-def/4242",
        "matrix": "matrixs://syt_token@matrix.example.org/#commute:example.org", "discord": "discord://1234/tokentoken",
        "slack": "slack://T1234/B5678/XabcdEF", "json": "jsons://hooks.example.com/alerts", "mailto": "mailto:ada@example.com",
    ]

    @Test func everyServiceIsReadBackAsItselfAndNamesItsOwnSchemes() throws {
        let schemes = Channel.services.flatMap { $0.schemes }
        #expect(Set(schemes).count == schemes.count, "a scheme is claimed twice: \(schemes)")
        #expect(Set(Channel.services.map { $0.kind }).count == Channel.services.count)
        #expect(Set(Channel.services.map { $0.schemes[0] }) == Set(Self.samples.keys), "a service has no sample here, or a sample no service")
        for service in Channel.services {
            let sample = try #require(Self.samples[service.schemes[0]])
            let channel = try Channel(url: sample)
            #expect(type(of: channel.service) == service, "\(sample) read as \(type(of: channel.service))")
            #expect(channel.listing.kind == service.kind)
            #expect(service.schemes.contains { service.forms.first?.hasPrefix($0 + ":") == true }, "\(service.forms)")
            #expect(channel.canUpdate == service.canUpdate && channel.canClear == service.canClear)
            // Every credential is among the secrets, and none is in the summary.
            for secret in channel.secrets where secret.count >= 4 {
                #expect(!channel.summary.contains(secret), "\(channel.summary) shows \(secret)")
            }
        }
        #expect(Channel.schemes == schemes)
        #expect(Channel.hostVariables.map(\.name) == ["TRAVELTIMES_PUSHOVER_URL", "TRAVELTIMES_TELEGRAM_URL", "TRAVELTIMES_DISCORD_URL", "TRAVELTIMES_SLACK_URL"])
        #expect(Channel.hostVariable(of: "https://discord.com/api/webhooks/1/x")?.name == "TRAVELTIMES_DISCORD_URL")
        #expect(Channel.hostVariable(of: "ntfys://ntfy.sh/t") == nil)
    }
}
