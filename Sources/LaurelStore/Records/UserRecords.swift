import Foundation
import LaurelCore
import LaurelJSON

/// One user's stored facts, as seen inside one transaction, by concern: settings, custom activities, facts,
/// templates, progress and unlocks, pushes, subscription, account, challenges. Synchronous on purpose: an implementation runs
/// the whole unit of work on a database thread, so a request costs one hop there and back.
public protocol UserRecords:
    SettingsRecords, ActivityRecords, FactRecords, TemplateRecords, ProgressRecords, PushRecords, SubscriptionRecords,
    AccountRecords, ChallengeRecords
{}
