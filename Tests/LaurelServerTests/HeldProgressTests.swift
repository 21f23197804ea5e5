import Testing
@testable import LaurelServer

/// Which of a session's writes announce their change to the other instances (docs/instances.md).
@Suite struct HeldProgressTests {
    /// A session's first write is announced where other instances write too (one of them may hold a session of the
    /// user at the version before it), and not where this instance writes alone; later writes only once the
    /// session has found another instance writing the user.
    @Test func aSessionsFirstWriteIsAnnouncedOnlyWhereOtherInstancesWrite() {
        let alone = HeldProgress()
        #expect(!alone.beginCommit(from: 0, othersMayHold: false))
        alone.endCommit()
        #expect(!alone.beginCommit(from: 1, othersMayHold: true), "heard of others after the session's first write")
        alone.endCommit()

        let amongOthers = HeldProgress()
        #expect(amongOthers.beginCommit(from: 0, othersMayHold: true))
        amongOthers.endCommit()
        #expect(!amongOthers.beginCommit(from: 1, othersMayHold: true), "only the first")
        amongOthers.endCommit()
    }
}
