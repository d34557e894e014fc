@_exported import Basics
