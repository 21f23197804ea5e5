import Foundation
import LaurelCore
import LaurelJSON

/// The account as a whole: whose records these are, all of it as one document, and its deletion.
public protocol AccountRecords {
    var user: UserID { get }
    /// Everything stored about the user, as one document (ACCOUNT.EXPORT).
    func accountDocument() throws -> JSONValue
    /// Removes the user and all their data; every instance closes the user's connections.
    func deleteAccount() throws
}
