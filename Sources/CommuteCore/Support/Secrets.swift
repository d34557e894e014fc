/// The environment variables that hold secrets. A secret appears in no output, no argv, no file
/// but config.json — and in no child's environment: programs the product runs (exec notifiers,
/// the fetch helper) get this process's environment without these.
public enum Secrets {
    /// `WSDOT_ACCESS_CODE`, and `TRAVELTIMES_SOURCE`, whose URL may carry a user, a password or a
    /// token.
    public static let environmentVariables: Set<String> = ["WSDOT_ACCESS_CODE", "TRAVELTIMES_SOURCE"]

    /// An environment for a child process: `environment` without the secrets.
    public static func childEnvironment(_ environment: [String: String]) -> [String: String] {
        environment.filter { !environmentVariables.contains($0.key) }
    }
}
