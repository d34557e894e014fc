import FoundationEssentials

/// An iCalendar file of the coming leave times (`export add ics FILE`), for a calendar to read.
enum ICalendarExport: FileExport {
    static let form = "FILE"
    static let help = [
        "an iCalendar file of every planned leave alert (a calendar app",
        "    subscribes to it where a web server serves it).",
    ]

    static var content: KeyPath<Exports.Content, Data> { \.calendar }
}
