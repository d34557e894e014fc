import FoundationEssentials

/// FNV-1a over UTF-8, twice with different seeds: an identity that is the same in every process
/// (Swift's `Hasher` is seeded per process).
struct StableHash {
    private var low: UInt64 = 0xcbf2_9ce4_8422_2325
    private var high: UInt64 = 0x8422_2325_cbf2_9ce4

    mutating func combine(_ text: String) {
        for byte in text.utf8 + [0] {
            low = (low ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            high = (high ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 &+ 1
        }
    }

    var uuid: UUID {
        var bytes = withUnsafeBytes(of: low.bigEndian) { Array($0) } + withUnsafeBytes(of: high.bigEndian) { Array($0) }
        bytes[6] = bytes[6] & 0x0F | 0x50
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
