@_exported import CommuteStore
