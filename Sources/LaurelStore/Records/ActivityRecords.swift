import Foundation
import LaurelCore
import LaurelJSON

/// The user's own activities (built-in ones are the catalog's).
public protocol ActivityRecords {
    func customActivities(includeDeleted: Bool) throws -> [Activity]
    func customActivity(id: String) throws -> Activity?
    /// Case-insensitive; deleted activities included.
    func customActivity(named name: String) throws -> Activity?
    func customActivityCount() throws -> Int
    func insertCustomActivity(name: String, unit: ActivityUnit, icon: String?) throws -> Activity
    func setCustomActivityDeleted(id: String, deleted: Bool) throws -> Activity
}
