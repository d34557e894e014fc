import Basics
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// `traveltimes fetch-helper`: HTTP requests for `traveltimes` itself (a feed GET, a webhook POST),
/// run as a child process so that libcurl and TLS load only in a process that needs them, and a
/// request that overruns can be killed. Not a command for people: `traveltimes` runs it (see
/// CommuteCore's `FetchHelper` and `HelperSession`).
///
/// - no argument: one JSON request line on stdin, one reply line and the body on stdout; it ends
///   by the request's deadline, holding at most its body limit.
/// - `--serve N`: numbered requests until input ends, N at a time (`FetchService`).
/// - `--check`: whether libcurl can be loaded (for `traveltimes doctor`).
public enum FetchHelperCommand {
    /// The first argument that runs it.
    public static let name = FetchHelper.commandName

    /// Runs it with the arguments after its name; never returns.
    public static func run(_ arguments: [String]) -> Never {
        if arguments.count == 2, arguments[0] == "--serve" {
            FetchService(workers: Int(arguments[1]) ?? 4).run()
            _exit(0)
        }
        if arguments == ["--check"] {
            if let problem = CurlHTTPClient.loadProblem() {
                standardError("traveltimes \(name): \(problem)\n")
                exit(69)
            }
            standardOutput("traveltimes \(name): ready\n")
            exit(0)
        }
        guard arguments.isEmpty else {
            standardError("traveltimes \(name): not a command for people: traveltimes runs it for its requests\n")
            exit(64)
        }
        let input = readStandardInput(limit: 8 << 20)
        guard let request = try? JSONCoding.decode(FetchHelper.Request.self, from: input), let url = URL(string: request.url) else {
            standardError("traveltimes \(name): expected a request line on stdin (traveltimes runs it for its requests)\n")
            exit(64)
        }
        let result: Result<HTTPResponse, HTTPClientError>
        do {
            let client = CurlHTTPClient(maximumBodyBytes: request.maxBytes)
            result = .success(try client.send(request.method ?? "GET", url, headers: request.headers, body: request.body, timeout: request.timeout))
        } catch let error as HTTPClientError {
            result = .failure(error)
        } catch {
            result = .failure(.connection(String(describing: error)))
        }
        FetchHelper.writeAnswer(result, to: STDOUT_FILENO)
        _exit(0)
    }
}
