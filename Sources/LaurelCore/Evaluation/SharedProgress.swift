/// A user's progress as one object handed on by reference. A decision hands the progress after it to the session
/// this way, and the session hands it to the next decision: a ``UserProgress`` passed by value retains every table
/// in it at each hand-over, and a LOG went through several.
///
/// It never changes while more than one reference to it exists: ``take(from:)`` moves the progress out only through
/// a reference its caller holds alone, and a decision in place (``ProgressEvaluator/evaluate(_:inPlace:with:now:)``)
/// takes it out of an object so held and puts the progress after the change back into the same object, which then
/// becomes the decision's. No other thread can be reading it meanwhile (which is why the class may be `Sendable` with
/// a stored `var`).
public final class SharedProgress: @unchecked Sendable {
    /// Nil once taken: nothing is left in its place (putting even an empty progress there retains as many objects as
    /// a copy does, and its release as many again). Spelled out, not `UserProgress?`: an optional `var` written with
    /// the question mark starts as nil, and the initializer then assigned the progress over it, moving its 672 bytes
    /// twice more and destroying the nil.
    @usableFromInline internal var held: Optional<UserProgress>

    /// Takes `progress` over (an initializer owns its arguments: nothing is copied when the caller lets go of it).
    public init(_ progress: consuming UserProgress) {
        held = consume progress
    }

    /// The progress, read in place; not to be read once taken. Inlined into the reading module: called, a `_read`
    /// coroutine yielding a value this large allocates its frame and copies the value's bytes into it at each read;
    /// inlined, the reader takes what it reads from the object itself.
    @inlinable public var progress: UserProgress {
        _read { yield held.unsafelyUnwrapped }
    }

    /// The progress's figures.
    @inlinable public var figures: ProgressFigures { held.unsafelyUnwrapped.figures }

    /// Moves the progress out of `shared` when the caller's reference is the only one, leaving the object empty (not
    /// to be read again); nil (and nothing changed) when anyone else holds it. A decision then changes the tables in
    /// place, where a copy would retain every table and copy each one it changes.
    public static func take(from shared: inout SharedProgress) -> UserProgress? {
        guard isKnownUniquelyReferenced(&shared) else { return nil }
        return shared.held.take()
    }
}
