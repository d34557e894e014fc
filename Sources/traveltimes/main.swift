import CommuteNetworking
import FoundationEssentials
import Glibc
import TraveltimesCLI

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == FetchHelperCommand.name {
    FetchHelperCommand.run(Array(arguments.dropFirst()))
}
let status = CLI.run(arguments, environment: ProcessInfo.processInfo.environment, io: .standard)
exit(status.rawValue)
