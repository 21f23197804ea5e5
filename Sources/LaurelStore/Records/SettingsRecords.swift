import Foundation
import LaurelCore
import LaurelJSON

/// The user's settings as they changed over time.
public protocol SettingsRecords {
    func currentSettings() throws -> UserSettings
    func appendSettings(_ settings: UserSettings) throws
    /// Every rest-day and vacation change, each from the local day it was made on.
    func streakSettingsHistory() throws -> StreakSettingsHistory
}
