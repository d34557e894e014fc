// The door's public face: the vocabulary its features speak — text and JSON (Basics), the model,
// the sources' and history's values, delivery's. Not the store: only the features reach it, so a
// command, a test of the CLI or the benchmark cannot name `Store`, `AtomicFile` or a document.
@_exported import Basics
@_exported import CommuteDelivery
@_exported import CommuteHistory
@_exported import CommuteModel
@_exported import CommuteSources
