import CommuteCore
import FoundationEssentials

extension Commands {
    enum ConfigShowCommand {
        static let command = Command(
            name: "config show",
            summary: "Show the configuration (secrets are never shown)",
            options: [Options.json]
        ) { invocation in
            let configuration = try invocation.commute().configuration
            let secrets = configuration.accessCode.map { [$0] } ?? []
            let source = configuration.source.map { FeedSource.redact(FeedSource.display($0), secrets: secrets) }
            let credentials = Credentials(environment: invocation.environment, configuration: configuration)
            let environmentCode = credentials.accessCode?.isOnlyInShell == true
            let codeState = credentialState(credentials.accessCode)
            let (zone, zoneSource) = try invocation.timeZone(saved: configuration.timeZone)
            if invocation.wantsJSON {
                try invocation.printJSON(ConfigJSON(
                    configuration, source: source, codeFromEnvironment: environmentCode, units: configuration.unitsInForce(zone: zone),
                    environment: invocation.environment))
                return
            }
            // Each name in a column as wide as the common ones, then its value; a longer name
            // (budget.transitous) takes one space.
            let width = 16
            func line(_ name: String, _ value: String) {
                invocation.io.out((name + ":").padded(to: max(width, name.count + 2)) + value)
            }
            for setting in Setting.all { line(setting.name, shown(setting)) }
            line("notifiers", configuration.effectiveNotifiers.map(\.summary).joined(separator: "; "))

            /// The setting's value as it is in force: a secret only as set or not, and where from.
            func shown(_ setting: Setting) -> String {
                switch setting {
                case .source: source ?? "not set"
                case .accessCode: codeState
                case .timeZone: describe(zone, zoneSource, saved: configuration.timeZone)
                case .grace: TimeFormatting.age(TimeInterval(configuration.graceSeconds ?? Configuration.defaultGrace))
                case .quietHours: configuration.quietHours.map(\.description) ?? "none"
                case .dailyCap: "\(configuration.standardDailyCap ?? Configuration.defaultStandardDailyCap) scheduled alerts"
                case .providerKey(let provider): credentialState(credentials.key(for: provider))
                case .lead: "\(configuration.leadMinutes ?? Configuration.defaultLeadMinutes) min before an alert, custom routes are in play"
                case .minInterval: "\(configuration.minIntervalMinutes ?? Configuration.defaultMinIntervalMinutes) min between requests for a route"
                case .planRequests:
                    configuration.planRequests == false
                        ? "off (custom routes in play are asked about now, every min-interval)"
                        : "on (each custom route is asked when its alerts need it, about the moment you will leave)"
                case .budget(let provider): "\(configuration.budget(for: provider)) requests a day"
                case .staleAfter: staleAfterLabel(configuration)
                case .alertLifetime:
                    "\(TimeFormatting.age(TimeInterval(configuration.alertLifetime))) after it fires, an alert is cleared where the channel can"
                case .followThreshold:
                    configuration.followThreshold.map { "a followed trip's leave alert is updated when it is cancelled or moves \($0) min" }
                        ?? "off (no trip is followed after its leave alert)"
                case .healthNotify: configuration.healthNotify.map { $0.joined(separator: ", ") } ?? "every notifier"
                case .historyDays:
                    configuration.historyRetentionDays == 0
                        ? "off (no travel times are recorded)" : "\(configuration.historyRetentionDays) days of travel times are kept"
                case .typicalWeeks: "typical times look back \(configuration.typicalTimeWeeks) weeks"
                case .contact: configuration.contact.map { "\($0) (\(Product.userAgent(contact: $0)))" } ?? "not set (requests name no one to reach: `config set contact YOUR-EMAIL`, as the public services ask)"
                case .geocoderURL: configuration.geocoderURL ?? Geocoder.nominatim.defaultBaseURL
                case .providerURL(let provider): configuration.baseURL(for: provider) ?? provider.defaultBaseURL
                case .freeFlowMargin: "free-flow estimates × \(TimeFormatting.factor(configuration.freeFlowMarginInForce)) for arrive-by leave times"
                case .units:
                    configuration.units.map { "\($0.rawValue) (set)" }
                        ?? "\(configuration.unitsInForce(zone: zone).rawValue) (the unit of \(zone.identifier)'s country; config set units km|mi)"
                }
            }
        }

        /// `set`, `set (from TOMTOM_API_KEY)` or `not set`: never the secret.
        static func credentialState(_ credential: Credentials.Credential?) -> String {
            switch credential?.origin {
            case nil: "not set"
            case .configuration: "set"
            case .environment(let variable): "set (from \(variable))"
            }
        }

        /// `60 min: older data or failing refreshes send a health alert`, or `off`.
        static func staleAfterLabel(_ configuration: Configuration) -> String {
            let minutes = configuration.staleAfterMinutes ?? Configuration.defaultStaleAfterMinutes
            guard minutes > 0 else { return "off (no health alerts)" }
            return "\(TimeFormatting.age(TimeInterval(minutes * 60))): older data, or refreshes failing that long, send a health alert"
        }
    }
}
