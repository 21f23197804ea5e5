import Foundation
import LaurelCore
import LaurelStore

extension UserRecords {
    /// The user's time zone now (UTC if the stored name is unknown to this machine's zone data).
    func timeZone() throws -> TimeZone {
        TimeZone(identifier: try currentSettings().timeZone) ?? .gmt
    }
}
