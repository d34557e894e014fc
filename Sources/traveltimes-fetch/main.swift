// traveltimes-fetch: one HTTP GET for `traveltimes refresh`. Reads a JSON request line on stdin,
// writes a JSON reply line and the body on stdout. See CommuteCore's FetchHelper.
import CommuteCore
import CommuteNetworking
import Foundation

let input = FileHandle.standardInput.readDataToEndOfFile()
guard let request = try? JSONDecoder().decode(FetchHelper.Request.self, from: input), let url = URL(string: request.url)
else {
    FileHandle.standardError.write(Data("traveltimes-fetch: expected a request line on stdin (it is run by traveltimes refresh)\n".utf8))
    exit(64)
}
let result: Result<HTTPResponse, HTTPClientError>
do {
    let client = URLSessionHTTPClient(maximumBodyBytes: request.maxBytes)
    result = .success(
        request.method == "POST"
            ? try client.post(url, headers: request.headers, body: request.body ?? Data(), timeout: request.timeout)
            : try client.get(url, headers: request.headers, timeout: request.timeout))
} catch let error as HTTPClientError {
    result = .failure(error)
} catch {
    result = .failure(.connection(String(describing: error)))
}
FetchHelper.writeAnswer(result, to: STDOUT_FILENO)
// The answer is written: skip URLSession's teardown, which would keep `refresh` waiting for this
// process to end.
_exit(0)
