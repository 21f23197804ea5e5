import Foundation
import LaurelCore
import LaurelJSON

/// The user's pushes, numbered in one sequence and kept for replay.
public protocol PushRecords {
    /// Stores a push and returns it with its `seq`, the next of the user's sequence.
    func appendPush(_ push: PushDraft) throws -> StoredPush
    func pushes(after seq: Int64, limit: Int) throws -> [StoredPush]
    func lastPushSeq() throws -> Int64
    /// Tells every server instance, once this transaction commits, that the user has pushes up to `seq`.
    func announcePushes(through seq: Int64) throws
}

/// A push kept for replay (`AUTH {"resume_after"}`, NOTIFICATIONS).
public struct StoredPush: Sendable, Equatable {
    public var seq: Int64
    public var kind: PushKind
    public var at: Date
    public var data: JSONObject

    public init(seq: Int64, kind: PushKind, at: Date, data: JSONObject) {
        self.seq = seq
        self.kind = kind
        self.at = at
        self.data = data
    }
}
