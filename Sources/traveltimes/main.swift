import Foundation
import TraveltimesCLI

let status = CLI.run(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment, io: .standard)
exit(status.rawValue)
