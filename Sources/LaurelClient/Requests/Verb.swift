import Foundation

/// The verbs of the protocol as typed requests: `try await client.send(Verb.Profile())`. Each one's fields are the
/// verb's argument (nil ones left out) and its `Answer` the `OK` value (protocol.md, "Verbs").
public enum Verb {
    /// Every request type, one or more for each verb of the server but AUTH (which the client sends itself).
    public static var all: [any LaurelRequest.Type] {
        [
            Ping.self, Quit.self,
            Activities.self, CreateActivity.self, DeleteActivity.self, RestoreActivity.self,
            Log.self, DeleteLog.self, Logs.self, LessonDone.self, Event.self, Reminder.self,
            Achievements.self, AchievementByID.self, Profile.self, Challenges.self, Settings.self, Notifications.self,
            Subscription.self, StartTrial.self,
            Presets.self, Templates.self, CreateTemplate.self, CreateTemplateForEachActivity.self, UpdateTemplate.self,
            DeleteTemplate.self, ExportTemplates.self, ImportTemplates.self,
            PublishTemplate.self, UnpublishTemplate.self, InstallTemplate.self, Market.self,
            CreateInvite.self, AcceptInvite.self, Friends.self, RemoveFriend.self, Leaderboard.self,
            ExportAccount.self, DeleteAccount.self,
        ]
    }

    /// `PING` → the server's time.
    public struct Ping: LaurelRequest {
        public static let verb = "PING"
        public struct Answer: Decodable, Sendable, Equatable { public var time: Date }
        public init() {}
    }

    /// `LOG`. Logs that must not be lost while offline go through the client's outbox instead (``OutboxFact``).
    public struct Log: LaurelRequest {
        public static let verb = "LOG"
        public typealias Answer = FactAnswer
        public var activity: String
        public var amount: Int?
        public var at: Date?
        public var id: String?
        public var note: String?

        public init(activity: String, amount: Int? = nil, at: Date? = nil, id: String? = nil, note: String? = nil) {
            self.activity = activity
            self.amount = amount
            self.at = at
            self.id = id
            self.note = note
        }
    }

    /// `LOG.DELETE`.
    public struct DeleteLog: LaurelRequest {
        public static let verb = "LOG.DELETE"
        public typealias Answer = DeletedLog
        public var id: String
        public init(id: String) { self.id = id }
    }

    /// `LOGS`, newest first.
    public struct Logs: LaurelRequest {
        public static let verb = "LOGS"
        public typealias Answer = LogPage
        public var activity: String?
        /// `YYYY-MM-DD`.
        public var from: String?
        public var to: String?
        public var limit: Int?
        public var before: String?

        public init(activity: String? = nil, from: String? = nil, to: String? = nil, limit: Int? = nil, before: String? = nil) {
            self.activity = activity
            self.from = from
            self.to = to
            self.limit = limit
            self.before = before
        }
    }

    /// `LESSON.DONE`.
    public struct LessonDone: LaurelRequest {
        public static let verb = "LESSON.DONE"
        public typealias Answer = FactAnswer
        public var lesson: String
        public var at: Date?
        public var id: String?
        public init(lesson: String, at: Date? = nil, id: String? = nil) {
            self.lesson = lesson
            self.at = at
            self.id = id
        }
    }

    /// `EVENT` (`share`, `invite`, as the catalog accepts).
    public struct Event: LaurelRequest {
        public static let verb = "EVENT"
        public typealias Answer = FactAnswer
        public var name: String
        public var at: Date?
        public var id: String?
        public init(name: String, at: Date? = nil, id: String? = nil) {
            self.name = name
            self.at = at
            self.id = id
        }
    }

    /// `REMINDER`: a reminder the app showed.
    public struct Reminder: LaurelRequest {
        public static let verb = "REMINDER"
        public typealias Answer = ReminderAnswer
        public var at: Date?
        public var id: String?
        public init(at: Date? = nil, id: String? = nil) {
            self.at = at
            self.id = id
        }
    }

    /// `PROFILE`.
    public struct Profile: LaurelRequest {
        public static let verb = "PROFILE"
        public typealias Answer = UserProfile
        public init() {}
    }

    /// `ACHIEVEMENTS`, filtered.
    public struct Achievements: LaurelRequest {
        public static let verb = "ACHIEVEMENTS"
        public var category: String?
        public var activity: String?
        /// `unlocked`, `in_progress` or `locked`.
        public var status: String?
        /// `builtin` or `template`.
        public var source: String?
        public var includeHidden: Bool?

        public struct Answer: Decodable, Sendable, Equatable {
            public var summary: Summary
            public var achievements: [Achievement]

            /// Unlocked of all, and unlocked by tier.
            public struct Summary: Decodable, Sendable, Equatable {
                public var unlocked: Int
                public var total: Int
                public var byTier: [String: Int]
                enum CodingKeys: String, CodingKey {
                    case unlocked, total
                    case byTier = "by_tier"
                }
            }
        }

        enum CodingKeys: String, CodingKey {
            case category, activity, status, source
            case includeHidden = "include_hidden"
        }

        public init(category: String? = nil, activity: String? = nil, status: String? = nil, source: String? = nil, includeHidden: Bool? = nil) {
            self.category = category
            self.activity = activity
            self.status = status
            self.source = source
            self.includeHidden = includeHidden
        }
    }

    /// `ACHIEVEMENT` by id, with the explanation when asked.
    public struct AchievementByID: LaurelRequest {
        public static let verb = "ACHIEVEMENT"
        public typealias Answer = Achievement
        public var id: String
        public var explain: Bool?
        public init(id: String, explain: Bool? = nil) {
            self.id = id
            self.explain = explain
        }
    }

    /// `SETTINGS`: reads them, or changes the fields given.
    public struct Settings: LaurelRequest {
        public static let verb = "SETTINGS"
        public typealias Answer = UserSettings
        public var timeZone: String?
        public var restDay: String?
        public var vacation: Bool?
        public var weeklyGoal: Int?
        public var reminderWindowMinutes: Int?
        /// False hides the user from global leaderboards.
        public var leaderboards: Bool?

        typealias CodingKeys = UserSettings.CodingKeys

        public init(timeZone: String? = nil, restDay: String? = nil, vacation: Bool? = nil, weeklyGoal: Int? = nil,
                    reminderWindowMinutes: Int? = nil, leaderboards: Bool? = nil) {
            self.timeZone = timeZone
            self.restDay = restDay
            self.vacation = vacation
            self.weeklyGoal = weeklyGoal
            self.reminderWindowMinutes = reminderWindowMinutes
            self.leaderboards = leaderboards
        }
    }

    /// `CHALLENGES` of today (or of a past `day`).
    public struct Challenges: LaurelRequest {
        public static let verb = "CHALLENGES"
        public typealias Answer = ChallengeList
        public var day: String?
        public init(day: String? = nil) { self.day = day }
    }

    /// `NOTIFICATIONS`: stored pushes after a `seq`.
    public struct Notifications: LaurelRequest {
        public static let verb = "NOTIFICATIONS"
        public var after: Int?
        public var limit: Int?
        public struct Answer: Decodable, Sendable, Equatable {
            public var notifications: [Notification]
            public var lastSeq: Int
            enum CodingKeys: String, CodingKey {
                case notifications
                case lastSeq = "last_seq"
            }
        }
        /// A stored push: its `seq`, kind, time and object.
        public struct Notification: Decodable, Sendable, Equatable {
            public var seq: Int
            public var kind: String
            public var at: Date
            /// The push's object, as its ``Push`` carries it.
            public var data: RawJSON
        }
        public init(after: Int? = nil, limit: Int? = nil) {
            self.after = after
            self.limit = limit
        }
    }
}
