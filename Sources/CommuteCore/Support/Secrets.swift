/// The environment variables that hold secrets. A secret appears in no output, no argv, no file
/// but config.json — and in no child's environment: programs the product runs (exec notifiers,
/// the fetch helper) get this process's environment without these.
public enum Secrets {
    /// `WSDOT_ACCESS_CODE`, `TRAVELTIMES_SOURCE` (whose URL may carry a user, a password or a
    /// token), and the routing providers' keys.
    public static let environmentVariables = Set(["WSDOT_ACCESS_CODE", "TRAVELTIMES_SOURCE"] + RouteProvider.allCases.map(\.keyVariable))

    /// An environment for a child process: `environment` without the secrets.
    public static func childEnvironment(_ environment: [String: String]) -> [String: String] {
        environment.filter { !environmentVariables.contains($0.key) }
    }
}
