import Dispatch
import FoundationEssentials
import Synchronization

/// A one-line progress message on a terminal's stderr for fetches longer than half a second.
/// Prints nothing when stderr is not a terminal (cron).
final class Spinner: @unchecked Sendable {
    private let timer: DispatchSourceTimer?
    /// Guards the frame shown last and whether any was: the timer's queue writes them, `stop()`
    /// reads them.
    private let state = Mutex((frame: 0, shown: false))
    private let io: TerminalIO?

    /// Shows nothing when `io` is nil (quiet) or stderr is not a terminal.
    init(io: TerminalIO?, message: String) {
        self.io = io
        guard let io, io.errorIsTerminal else {
            timer = nil
            return
        }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        self.timer = timer
        let frames = ["|", "/", "-", "\\"]
        timer.schedule(deadline: .now() + 0.5, repeating: 0.1)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            let text = self.state.withLock { state -> String in
                state.shown = true
                state.frame += 1
                return "\r\(frames[state.frame % frames.count]) \(message)…"
            }
            io.writeError(text)
        }
        timer.resume()
    }

    func stop() {
        timer?.cancel()
        if state.withLock({ $0.shown }) { io?.writeError("\r\u{1B}[K") }
    }
}
