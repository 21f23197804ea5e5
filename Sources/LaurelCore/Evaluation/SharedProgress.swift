/// A user's progress as one object that never changes, handed on by reference. A decision hands the progress after
/// it to the session this way, and the session hands it to the next decision: a ``UserProgress`` passed by value
/// retains every table in it at each hand-over, and a LOG went through several.
public final class SharedProgress: Sendable {
    public let progress: UserProgress

    /// Takes `progress` over (an initializer owns its arguments: nothing is copied when the caller lets go of it).
    public init(_ progress: UserProgress) {
        self.progress = progress
    }
}
