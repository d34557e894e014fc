// The benchmark's baseline: the cost of starting a Foundation binary and printing one line.
import Foundation

print("hello, \(ProcessInfo.processInfo.processName)")
