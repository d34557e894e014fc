// traveltimes-fetch: HTTP requests for `traveltimes` (a feed GET, a webhook POST). Reads a JSON
// request line on stdin, writes a JSON reply line and the body on stdout. See CommuteCore's
// FetchHelper. It ends by the request's deadline, holding at most its body limit. `--check` says
// whether libcurl can be loaded; `--serve N` answers numbered requests until its input ends, N at
// a time (CommuteCore's HelperSession).
import CommuteCore
import CommuteNetworking
import Foundation

if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--serve" {
    FetchService(workers: Int(CommandLine.arguments[2]) ?? 4).run()
    _exit(0)
}

// `--check`: whether a request could be made at all (for `traveltimes doctor`).
if CommandLine.arguments.dropFirst() == ["--check"] {
    if let problem = CurlHTTPClient.loadProblem() {
        FileHandle.standardError.write(Data("traveltimes-fetch: \(problem)\n".utf8))
        exit(69)
    }
    print("traveltimes-fetch: ready")
    exit(0)
}
let input = FileHandle.standardInput.readDataToEndOfFile()
guard let request = try? JSONDecoder().decode(FetchHelper.Request.self, from: input), let url = URL(string: request.url)
else {
    FileHandle.standardError.write(Data("traveltimes-fetch: expected a request line on stdin (it is run by traveltimes refresh)\n".utf8))
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
