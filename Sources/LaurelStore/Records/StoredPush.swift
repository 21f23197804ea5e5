import Foundation
import LaurelJSON

/// A push kept for replay (`AUTH {"resume_after"}`, NOTIFICATIONS): its place in the user's sequence, its kind, when
/// it was stored and what it says.
public struct StoredPush: Sendable, Equatable {
    public var seq: Int64
    public var kind: PushKind
    public var at: Date
    /// The push's object as JSON text, without `seq`.
    public var data: String

    public init(seq: Int64, kind: PushKind, at: Date, data: String) {
        self.seq = seq
        self.kind = kind
        self.at = at
        self.data = data
    }
}

/// A push before it is stored: what it says (JSON text), without its seq.
public struct PushDraft: Sendable, Equatable {
    public var kind: PushKind
    public var data: String

    public init(kind: PushKind, data: String) {
        self.kind = kind
        self.data = data
    }

    /// The stored push, once its seq and time are known.
    public func stored(seq: Int64, at: Date) -> StoredPush {
        StoredPush(seq: seq, kind: kind, at: at, data: data)
    }
}

/// The kinds of push that are stored with a seq (protocol.md, Pushes).
public enum PushKind: String, Sendable {
    case unlock = "UNLOCK"
    case level = "LEVEL"
    case streak = "STREAK"
    case challenge = "CHALLENGE"
    case goal = "GOAL"
    case friend = "FRIEND"
    case subscription = "SUBSCRIPTION"
}
