import ProgressStore
import Testing
import TestSupport

/// A mean divides the sum as `Double(Int128)` converts it, rounding included: sums of a
/// million depths pass 2⁶⁴ units, and halfway cases must round to even as the conversion does.
@Test func depthSumMeansRoundAsTheConversionDoes() {
    var random = SplitMix(state: 35)
    var sums: [Int128] = [0, 1, -1, .max, .min, Int128(Int64.max), Int128(Int64.min), 1 << 64, (1 << 64) - 1]
    for _ in 0..<20_000 {
        let bits = Int.random(in: 1...126, using: &random)
        let drawn = UInt128(random.next()) << 64 | UInt128(random.next())
        let value = Int128(truncatingIfNeeded: drawn) >> (127 - bits)
        // Halfway between two doubles, and either side of it.
        let halfway = (Int128(Int64.random(in: 1...(1 << 53), using: &random)) << 11 | 0x400)
            << Int.random(in: 0...60, using: &random)
        sums += [value, -value, halfway, halfway + 1, halfway - 1] as [Int128]
    }
    let wrong = sums.filter { DepthSum(units: $0).mean(over: 1) != Double($0) / 0x1p60 }
    #expect(wrong.isEmpty, "\(wrong.prefix(3))")
}
