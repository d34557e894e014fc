@_exported import CommuteModel
