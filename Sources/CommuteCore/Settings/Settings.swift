import FoundationEssentials
@_spi(Store) import CommuteStore

extension Settings {
    /// Saves a setting's new value (`config set`). A change that `replansAlerts` is followed by a
    /// `reschedule` of a commute opened afresh, in the zone now in force.
    public func change(_ change: SettingChange) throws {
        try store.updateConfiguration { change.apply(&$0) }
    }

    /// Takes a setting back to its default (`config unset`).
    public func clear(_ setting: Setting) throws {
        try store.updateConfiguration { setting.clear(in: &$0) }
    }
}
