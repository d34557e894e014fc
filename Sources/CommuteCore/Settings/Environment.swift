import Basics
import CommuteDelivery
import CommuteModel
import CommuteSources

extension EnvironmentVariable {
    /// Every variable the program reads, as `--help` and the man page list them: its own, each
    /// provider's key and base URL (from its descriptor), place search's, each notification
    /// service's host (from its file), then the system's.
    public static var documented: [EnvironmentVariable] {
        program + RouteProvider.keyed.compactMap(\.keyVariable) + RouteProvider.allCases.map(\.baseURLVariable)
            + [Geocoder.nominatim.baseURLVariable, AutobahnIncidents.baseURLVariable] + Channel.hostVariables + system
    }
}
