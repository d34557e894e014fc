// The door re-exports every layer: a command, a test or the benchmark imports CommuteCore alone.
@_exported import CommuteDelivery
@_exported import CommuteHistory
@_exported import CommuteSources
