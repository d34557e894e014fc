// The door's public face: the vocabulary its features speak — text and JSON (Basics), the model,
// the sources' and history's values, delivery's. Not the store: only the features reach it (its
// machinery is `@_spi(Store)`), so a command cannot name `Store` or `AtomicFile`, even importing
// `CommuteStore` itself.
@_exported import Basics
@_exported import CommuteDelivery
@_exported import CommuteHistory
@_exported import CommuteModel
@_exported import CommuteSources
