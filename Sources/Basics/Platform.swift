// What every file of the product builds on: FoundationEssentials (Date, Data, URL, JSON coding,
// FileManager) without the rest of Foundation — whose NSCalendar, NSTimeZone and NSLocale bring
// ICU and its 34 MB of data into a static binary — and the C library and Dispatch that Foundation
// used to bring along. The few Foundation conveniences the product used are in `StringShims`,
// `ScalarSet` and `TimeZone` (an IANA zone read from the system's tz database).
@_exported import Dispatch
@_exported import FoundationEssentials

#if canImport(Glibc)
@_exported import Glibc
#endif
