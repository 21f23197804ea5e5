import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// What replacing one catalog with another would do to the users in the database (`laurel catalog preview`): per
/// achievement added, changed or removed, how many users would unlock it at their next evaluation and how many would
/// lose it (an unlock of a removed achievement stays in their history but stops counting), the XP and level shifts,
/// and the challenge-pool changes. Each user is evaluated once with each catalog by the one evaluator, from what the
/// store holds; nothing is written. Users are added one at a time, so memory does not grow with their number.
public struct CatalogPreview: Sendable {
    public enum Change: String, Sendable {
        case added, changed, removed
    }

    public struct AchievementChange: Sendable, Equatable {
        public var id: String
        public var change: Change
        public var wouldUnlock = 0
        public var wouldLose = 0
    }

    public let old: Rulebook
    public let new: Rulebook
    public private(set) var users = 0
    public private(set) var achievements: [AchievementChange]
    /// Users whose XP would change, the sum of the changes, and the largest change either way.
    public private(set) var xpUsersChanged = 0
    public private(set) var xpSum = 0
    public private(set) var xpMax = 0
    public private(set) var levelsUp = 0
    public private(set) var levelsDown = 0
    /// Challenge kinds added to, removed from or changed in the pool.
    public let challengePool: (added: [String], removed: [String], changed: [String])

    public init(from old: Rulebook, to new: Rulebook) {
        self.old = old
        self.new = new
        let before = Dictionary(old.catalog.achievements.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Set(new.catalog.achievements.map(\.id))
        achievements = new.catalog.achievements.compactMap { definition in
            guard let earlier = before[definition.id] else { return AchievementChange(id: definition.id, change: .added) }
            return earlier == definition ? nil : AchievementChange(id: definition.id, change: .changed)
        } + old.catalog.achievements.filter { !after.contains($0.id) }.map { AchievementChange(id: $0.id, change: .removed) }
        let oldPool = Dictionary(grouping: old.catalog.challengePool, by: \.kind.rawValue)
        let newPool = Dictionary(grouping: new.catalog.challengePool, by: \.kind.rawValue)
        challengePool = (
            added: newPool.keys.filter { oldPool[$0] == nil }.sorted(),
            removed: oldPool.keys.filter { newPool[$0] == nil }.sorted(),
            changed: newPool.keys.filter { oldPool[$0] != nil && oldPool[$0] != newPool[$0] }.sorted())
    }

    /// Adds one user: evaluated with each catalog at `now` from what `reader` reads.
    public mutating func add(_ user: UserID, reading reader: any UserReader, now: Date) throws {
        let stored = try SessionProgress(reading: reader, rules: old, now: now).progress
        let before = try Self.evaluated(stored, rules: old, user: user, reader: reader, now: now)
        let after = try Self.evaluated(stored, rules: new, user: user, reader: reader, now: now)
        users += 1
        for index in achievements.indices {
            let id = achievements[index].id
            switch achievements[index].change {
            case .added, .changed:
                if after.unlocks[id] != nil, before.unlocks[id] == nil { achievements[index].wouldUnlock += 1 }
            case .removed:
                if before.unlocks[id] != nil { achievements[index].wouldLose += 1 }
            }
        }
        let shift = after.figures.xp - before.figures.xp
        if shift != 0 {
            xpUsersChanged += 1
            xpSum += shift
            if abs(shift) > abs(xpMax) { xpMax = shift }
        }
        if after.figures.level > before.figures.level { levelsUp += 1 }
        if after.figures.level < before.figures.level { levelsDown += 1 }
    }

    /// The user's progress after an evaluation with `rules` (what their next AUTH would store), reading what it needs.
    static func evaluated(_ stored: UserProgress, rules: Rulebook, user: UserID, reader: any UserReader, now: Date) throws -> UserProgress {
        var progress = stored
        progress.achievements = rules.achievements(
            templates: progress.templates, activities: progress.customActivities, unlocks: progress.unlocks, today: progress.today(at: now))
        let evaluator = ProgressEvaluator(rules: rules, user: user)
        var pieces = LoadedPieces()
        // Each round reads what the last asked for; a decision needs a few kinds of piece at most.
        for _ in 0..<8 {
            switch evaluator.evaluate(.catchUp, on: progress, with: pieces, now: now) {
            case .decided(let decision):
                return decision.progress
            case .refused:
                return progress
            case .needs(let wanted):
                let loaded = try PieceReading.read(wanted, from: reader, now: now)
                for (period, stored) in loaded.challenges { progress.challenges.know(period, stored: stored) }
                pieces.merge(loaded.pieces)
            }
        }
        return progress
    }

    /// The `--json` form: `{"users", "achievements": [...], "xp", "levels", "challenge_pool"}`.
    public var json: JSONValue {
        [
            "users": .int(users),
            "achievements": .array(achievements.map {
                ["id": .string($0.id), "change": .string($0.change.rawValue), "would_unlock": .int($0.wouldUnlock), "would_lose": .int($0.wouldLose)]
            }),
            "xp": ["users_changed": .int(xpUsersChanged), "sum": .int(xpSum), "max": .int(xpMax)],
            "levels": ["users_up": .int(levelsUp), "users_down": .int(levelsDown)],
            "challenge_pool": [
                "added": .array(challengePool.added.map(JSONValue.string)), "removed": .array(challengePool.removed.map(JSONValue.string)),
                "changed": .array(challengePool.changed.map(JSONValue.string)),
            ],
        ]
    }

    /// `json` as one line of text.
    public var jsonText: String { json.serialized() }

    /// The human form: a table of the achievements that change, then the XP, levels and challenge pool.
    public var table: String {
        var lines = ["\(users) users; \(old.catalog.name) -> \(new.catalog.name)"]
        if achievements.isEmpty {
            lines.append("no achievement changes")
        } else {
            let width = max(11, achievements.map(\.id.count).max() ?? 0)
            func pad(_ text: String, _ count: Int) -> String { text + String(repeating: " ", count: max(0, count - text.count)) }
            lines.append("\(pad("achievement", width))  change    would unlock  would lose")
            for change in achievements {
                let unlock = String(change.wouldUnlock), lose = String(change.wouldLose)
                lines.append("\(pad(change.id, width))  \(pad(change.change.rawValue, 8))  \(String(repeating: " ", count: max(0, 12 - unlock.count)))\(unlock)  \(String(repeating: " ", count: max(0, 10 - lose.count)))\(lose)")
            }
        }
        lines.append("xp: \(xpUsersChanged) users would change, by \(xpSum >= 0 ? "+" : "")\(xpSum) in all, at most \(xpMax >= 0 ? "+" : "")\(xpMax)")
        lines.append("levels: \(levelsUp) users up, \(levelsDown) down")
        func kinds(_ list: [String]) -> String { list.isEmpty ? "-" : list.joined(separator: ", ") }
        lines.append("challenge pool: added \(kinds(challengePool.added)); removed \(kinds(challengePool.removed)); changed \(kinds(challengePool.changed))")
        return lines.joined(separator: "\n")
    }
}
