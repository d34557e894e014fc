@_spi(Store) import CommuteStore

/// A file of the store that could not be read, written or locked: what every feature may throw,
/// for the command to map to its exit status.
public typealias StoreError = CommuteStore.StoreError
