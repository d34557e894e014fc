import Basics
import CommuteStore
import FoundationEssentials

/// An iCalendar file of the coming leave times (`export add ics FILE`), for a calendar to read.
enum ICalendarExport: ExportService {
    static func location(of place: String, currentDirectory: String) throws(ExportFailure) -> String {
        try FileExport.location(of: place, currentDirectory: currentDirectory)
    }
    static func validate(_ target: ExportTarget, field: String) throws(DocumentProblem) { try FileExport.validate(target, field: field) }
    static func shownLocation(of target: ExportTarget) -> String { DisplayText.line(target.location) }

    static func publish(
        _ target: ExportTarget, _ content: Exports.Content, previous: [String: String], client: any HTTPClient, timeout: TimeInterval, force: Bool
    ) -> Result<Exports.Delivered, ExportFailure> {
        FileExport.write(target, content.calendar, force: force)
    }

    static func withdraw(_ target: ExportTarget, previous: [String: String], client: any HTTPClient, timeout: TimeInterval) -> Result<Exports.Delivered, ExportFailure>? {
        nil
    }

    static func added(_ count: Int) -> String { "written" }
    static func removing(_ target: ExportTarget) -> String { FileExport.removing(target) }
    static func removed(_ target: ExportTarget, cleared: Int) -> String { FileExport.removed(target) }
    static let leftBehind = "its file stays"
}
