import Foundation
import LaurelCore
import LaurelJSON

/// The user's achievement templates (premium).
public protocol TemplateRecords {
    /// The user's templates, oldest first.
    func templates() throws -> [AchievementTemplate]
    func template(id: String) throws -> AchievementTemplate?
    func insertTemplate(name: String, activityID: String, type: TemplateType, tiers: [TemplateTier]) throws -> AchievementTemplate
    /// Saves name, tiers and activity state; returns the template as stored.
    func updateTemplate(_ template: AchievementTemplate) throws -> AchievementTemplate
    func deleteTemplate(id: String) throws
    /// Deactivates the activity's active templates with `reason`, or reactivates those inactive for `reason`;
    /// returns how many changed.
    func setTemplatesActive(_ active: Bool, activityID: String, reason: String) throws -> Int
}
