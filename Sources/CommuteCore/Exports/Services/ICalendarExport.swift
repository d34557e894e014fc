import FoundationEssentials

/// An iCalendar file of the coming leave times (`export add ics FILE`), for a calendar to read.
enum ICalendarExport: FileExport {
    static var content: KeyPath<Exports.Content, Data> { \.calendar }
}
