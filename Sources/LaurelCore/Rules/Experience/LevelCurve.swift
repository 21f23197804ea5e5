import Foundation

/// Levels as a function of XP: level 1 starts at 0 XP and going from level L to L+1 costs
/// `round(100 * 1.5^(L-1))` XP, so level 2 is reached at 100, 3 at 250, 4 at 475 and 5 at 813.
public enum LevelCurve {
    /// The XP at which each level starts, index 0 for level 1, up to the last level whose threshold fits an Int.
    public static let thresholds: [Int] = {
        var result = [0]
        var level = 1
        while true {
            let cost = cost(from: level)
            guard cost < Double(Int.max) - Double(result[result.count - 1]) else { break }
            result.append(result[result.count - 1] + Int(cost))
            level += 1
        }
        return result
    }()

    /// The highest level the curve can express.
    public static var maximumLevel: Int { thresholds.count }

    /// XP needed to go from `level` to `level + 1`.
    public static func cost(from level: Int) -> Double {
        (100 * pow(1.5, Double(level - 1))).rounded(.toNearestOrAwayFromZero)
    }

    /// The XP at which `level` starts (0 for level 1 and below).
    public static func threshold(of level: Int) -> Int {
        thresholds[min(max(level, 1), maximumLevel) - 1]
    }

    /// The level reached with `xp`.
    public static func level(forXP xp: Int) -> Int {
        // The last threshold not above xp.
        var low = 0
        var high = thresholds.count
        while low < high {
            let middle = (low + high) / 2
            if thresholds[middle] <= xp { low = middle + 1 } else { high = middle }
        }
        return max(low, 1)
    }

    /// XP still missing to reach the next level (0 at the top of the curve).
    public static func xpToNextLevel(forXP xp: Int) -> Int {
        let level = level(forXP: xp)
        guard level < maximumLevel else { return 0 }
        return threshold(of: level + 1) - xp
    }
}
