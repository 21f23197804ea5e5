import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import LaurelServer
import Synchronization
import Testing

/// Each instance evaluates a user's LOGs against the state its session holds and stores them only while the
/// user's state version is the one it evaluated against; a LOG on another instance in between makes it stale,
/// and the LOG is then evaluated again from the stored facts: nothing lost, nothing counted or unlocked twice.
@Suite struct SessionVersionTests {
    @Test func logsAlternatingBetweenTwoInstancesAllCountOnce() async throws {
        let catalog = try ShippedCatalogs.load("standfit")
        let user = try await LaurelTestDatabase.createUser("two-instances")
        // Neither instance hears of the other's writes, so each finds out from a stale commit.
        try await Self.onTwoInstances(user, hearsStateVersions: false) { first, here, second, there in
            var totals: [Int] = []
            for step in 0..<12 {
                let client = step % 3 == 2 ? there : here
                let answer = Engine.ok(try await client.request(
                    "LOG", Engine.log("pushups", amount: 10, at: TestClock.noon(daysAgo: 12 - step), id: "alt-\(step)")))
                totals.append(answer["xp"]?.intValue ?? -1)
            }
            #expect(totals == totals.sorted(), "XP never goes back: \(totals)")
            #expect(try await LaurelTestDatabase.logCount(of: user) == 12)

            // Both instances committed at their sessions' versions; a commit that came back stale (the other had
            // written in between) caught its session up with what was committed since and was decided again.
            let atVersion = first.counter(Self.atSessionVersion) + second.counter(Self.atSessionVersion)
            let underLock = first.counter(Self.underLock) + second.counter(Self.underLock)
            let caughtUp = first.counter(Self.caughtUp) + second.counter(Self.caughtUp)
            #expect(atVersion > 0 && caughtUp > 0, "at the session's version \(atVersion), caught up \(caughtUp), under the lock \(underLock)")
            #expect(atVersion + underLock == 12)

            let unlocks = try await LaurelTestDatabase.count(
                "SELECT count(*) - count(DISTINCT achievement_id) FROM laurel.unlocks WHERE user_id = $1::bigint",
                [.int(Int(user.id.rawValue))])
            #expect(unlocks == 0)
            let reference = try await RecomputedProgress.read(user, zone: .gmt, catalog: catalog)
            try await reference.expectAgreement(with: here, catalog: catalog, "first instance")
            try await reference.expectAgreement(with: there, catalog: catalog, "second instance")
        }
    }

    @Test func aLogRacingOnTwoInstancesUnlocksOnce() async throws {
        let user = try await LaurelTestDatabase.createUser("race-instances")
        try await Self.onTwoInstances(user) { first, here, second, there in
            // Both sessions hold the same version before the race.
            Engine.ok(try await here.request("PROFILE"))
            Engine.ok(try await there.request("PROFILE"))
            async let a = here.request("LOG", Engine.log("squats", amount: 5, at: TestClock.noon(daysAgo: 1), id: "race-a"))
            async let b = there.request("LOG", Engine.log("squats", amount: 5, at: TestClock.noon(daysAgo: 1, minute: 1), id: "race-b"))
            let answers = [Engine.ok(try await a), Engine.ok(try await b)]
            let reported = answers.flatMap { Engine.ids($0["unlocked"]) }
            #expect(reported.filter { $0 == "first_exercise" }.count == 1, "\(reported)")
            #expect(try await LaurelTestDatabase.count(
                "SELECT count(*) FROM laurel.unlocks WHERE user_id = $1::bigint AND achievement_id = 'first_exercise'",
                [.int(Int(user.id.rawValue))]) == 1)
            #expect(try await LaurelTestDatabase.logCount(of: user) == 2)
        }
    }

    @Test func readsAnswerFromTheSessionAndNoticeWritesElsewhere() async throws {
        let user = try await LaurelTestDatabase.createUser("reads-memory")
        try await Self.onTwoInstances(user) { first, here, second, there in
            Engine.ok(try await here.request("LOG", Engine.log("squats", amount: 7, at: TestClock.noon(daysAgo: 1))))
            let loads = first.counter(Self.loaded)
            let held = first.counter(Self.held)

            // Reads right after the LOG: from memory, and showing it.
            let profile = Engine.ok(try await here.request("PROFILE"))
            #expect(profile["totals"]?["logs"]?.intValue == 1)
            Engine.ok(try await here.request("ACHIEVEMENTS"))
            #expect(Engine.ok(try await here.request("ACHIEVEMENT", ["id": "first_exercise"]))["unlocked_at"] != nil)
            #expect(Engine.ok(try await here.request("SETTINGS"))["time_zone"]?.stringValue == "UTC")
            #expect(first.counter(Self.loaded) == loads, "no read went to the database")
            #expect(first.counter(Self.held) == held + 4)

            // A LOG on the other instance (which reads the first's LOG, or adds it when the first instance had heard
            // others write and so announced its session's first write; either way it then announces its own
            // change): the first adds that LOG from the announcement instead of loading everything again.
            Engine.ok(try await there.request("LOG", Engine.log("squats", amount: 3, at: TestClock.noon(daysAgo: 1, minute: 5))))
            let caughtUp = try await Eventually.holds(timeout: .seconds(10)) {
                Engine.ok(try await here.request("PROFILE"))["totals"]?["logs"]?.intValue == 2
            }
            #expect(caughtUp)
            #expect(second.counter(Self.caughtUp) + second.counter(Self.announcedAdded) > 0)
            #expect(first.counter(Self.announcedAdded) > 0)
            #expect(first.counter(Self.loaded) == loads, "caught up, not loaded again")

            // An operator's grant moves the user's version on as a change a session cannot add to what it holds: the
            // session loads everything, and shows it, also after another LOG there.
            try await LaurelTestDatabase.scalar("SELECT laurel.grant_premium($1::text, NULL)", [.text(user.name)])
            Engine.ok(try await there.request("LOG", Engine.log("squats", amount: 2, at: TestClock.noon(daysAgo: 1, minute: 9))))
            let premium = try await Eventually.holds(timeout: .seconds(10)) {
                let profile = Engine.ok(try await here.request("PROFILE"))
                return profile["tier"]?.stringValue == "premium" && profile["totals"]?["logs"]?.intValue == 3
            }
            #expect(premium)
            #expect(first.counter(Self.loaded) > loads)
        }
    }

    /// A session that finds the user's version moved on (LOGs, a deletion, LOGs again on the other instance) brings
    /// the newest engine state at hand up to date with the logs stored since; its figures agree with a
    /// recomputation from the stored facts either way.
    @Test func aSessionCatchesUpWithLogsStoredElsewhere() async throws {
        let catalog = try ShippedCatalogs.load("standfit")
        let user = try await LaurelTestDatabase.createUser("catch-up")
        try await Self.onTwoInstances(user) { first, here, second, there in
            for day in 0..<6 {
                Engine.ok(try await here.request("LOG", Engine.log("squats", amount: 5, at: TestClock.noon(daysAgo: 9 - day), id: "c\(day)")))
            }
            // The other instance reads what the first logged, deletes one (which stores the state), and both go on.
            let caughtUp = try await Eventually.holds(timeout: .seconds(10)) {
                Engine.ok(try await there.request("PROFILE"))["totals"]?["logs"]?.intValue == 6
            }
            #expect(caughtUp)
            Engine.ok(try await there.request("LOG.DELETE", ["id": "c2"]))
            for day in 6..<9 {
                Engine.ok(try await here.request("LOG", Engine.log("pushups", amount: 10, at: TestClock.noon(daysAgo: 9 - day), id: "c\(day)")))
            }
            Engine.ok(try await there.request("LOG", Engine.log("lunges", amount: 3, at: TestClock.noon(daysAgo: 1), id: "c9")))
            let reference = try await RecomputedProgress.read(user, zone: .gmt, catalog: catalog)
            let settled = try await Eventually.holds(timeout: .seconds(10)) {
                Engine.ok(try await here.request("PROFILE"))["totals"]?["logs"]?.intValue == 9
            }
            #expect(settled)
            try await reference.expectAgreement(with: here, catalog: catalog, "first instance")
            try await reference.expectAgreement(with: there, catalog: catalog, "second instance")
        }
    }

    /// A user whose devices are connected to two instances: once each instance has found the other writing the
    /// user, every write announces what it added, and the other instance adds it to what its session holds instead
    /// of reading what was committed (today's LOGs, backfills, a lesson-less event, unlocks and challenges among them).
    /// Both agree with a recomputation from the stored facts.
    @Test func writesOnTwoInstancesAreAddedFromTheirAnnouncements() async throws {
        let catalog = try ShippedCatalogs.load("standfit")
        let user = try await LaurelTestDatabase.createUser("announced")
        try await Self.onTwoInstances(user) { first, here, second, there in
            // The first exchange: each side finds the other writing the user (the second by reading once).
            Engine.ok(try await here.request("LOG", Engine.log("squats", amount: 5, at: TestClock.noon(daysAgo: 3), id: "a0")))
            Engine.ok(try await there.request("LOG", Engine.log("squats", amount: 5, at: TestClock.noon(daysAgo: 2), id: "a1")))
            #expect(try await Eventually.holds(timeout: .seconds(10)) { first.counter(Self.announcedAdded) >= 1 })
            let readsBefore = (first.counter(Self.caughtUp), second.counter(Self.caughtUp), first.counter(Self.loaded), second.counter(Self.loaded))
            let addedBefore = (first.counter(Self.announcedAdded), second.counter(Self.announcedAdded))
            // (The first exchange may have come back stale once, had an announcement been slow.)
            let staleBefore = first.counter(Self.stale) + second.counter(Self.stale)

            let writes: [(String, JSONObject)] = [
                ("LOG", Engine.log("pushups", amount: 10, id: "a2")),
                ("LOG", Engine.log("pushups", amount: 10, id: "a3")),
                ("LOG", Engine.log("lunges", amount: 20, at: TestClock.noon(daysAgo: 1), id: "a4")),
                ("EVENT", ["name": .string("share"), "id": .string("a5")]),
                ("LOG", Engine.log("pushups", amount: 30, id: "a6")),
                ("LOG", Engine.log("squats", amount: 40, id: "a7")),
            ]
            for (step, (verb, fields)) in writes.enumerated() {
                let (writer, listener) = step % 2 == 0 ? (here, second) : (there, first)
                let heard = listener.counter(Self.announcedAdded)
                Engine.ok(try await writer.request(verb, fields))
                // The other instance has added the change before the next write there.
                #expect(try await Eventually.holds(timeout: .seconds(10)) { listener.counter(Self.announcedAdded) > heard }, "\(verb) \(step)")
            }
            #expect(first.counter(Self.announcedAdded) - addedBefore.0 >= 3)
            #expect(second.counter(Self.announcedAdded) - addedBefore.1 >= 3)
            let readsAfter = (first.counter(Self.caughtUp), second.counter(Self.caughtUp), first.counter(Self.loaded), second.counter(Self.loaded))
            #expect(readsAfter == readsBefore, "no session read what the other instance committed")
            #expect(first.counter(Self.stale) + second.counter(Self.stale) == staleBefore)

            let reference = try await RecomputedProgress.read(user, zone: .gmt, catalog: catalog)
            try await reference.expectAgreement(with: here, catalog: catalog, "first instance")
            try await reference.expectAgreement(with: there, catalog: catalog, "second instance")
            let challenges = (Engine.ok(try await here.request("CHALLENGES")), Engine.ok(try await there.request("CHALLENGES")))
            #expect(challenges.0 == challenges.1)
            // The same progress and the same unlock instants (rarity is each instance's own reading, so left out).
            func unlocks(_ client: LineClient) async throws -> [String: [JSONValue?]] {
                Engine.byID(Engine.ok(try await client.request("ACHIEVEMENTS"))).mapValues { [$0["progress"], $0["unlocked_at"]] }
            }
            #expect(try await unlocks(here) == unlocks(there))
        }
    }

    /// Instances greet each other when they begin to hear the store's events, and each answers: from then on every
    /// session's first write is announced, so a user whose devices are on both has each side's first LOG added by
    /// the other instead of read back, and no session reads at all. (An instance that has heard of no other announces
    /// none: HeldProgressTests.)
    @Test func instancesThatKnowOfEachOtherAnnounceASessionsFirstWrite() async throws {
        let user = try await LaurelTestDatabase.createUser("first-announced")
        try await Self.onTwoInstances(user) { first, here, second, there in
            // The first instance heard the second's greeting; the second the first's answer.
            #expect(try await Eventually.holds(timeout: .seconds(10)) {
                first.counter(Self.greetingsHeard) > 0 && second.counter(Self.otherInstancesHeard) > 0
            })
            let reads = (first.counter(Self.caughtUp), second.counter(Self.caughtUp), first.counter(Self.loaded), second.counter(Self.loaded))
            let added = (first.counter(Self.announcedAdded), second.counter(Self.announcedAdded))

            Engine.ok(try await here.request("LOG", Engine.log("squats", amount: 5, at: TestClock.noon(daysAgo: 2), id: "f1")))
            #expect(try await Eventually.holds(timeout: .seconds(10)) { second.counter(Self.announcedAdded) > added.1 })
            Engine.ok(try await there.request("LOG", Engine.log("squats", amount: 5, at: TestClock.noon(daysAgo: 1), id: "f2")))
            #expect(try await Eventually.holds(timeout: .seconds(10)) { first.counter(Self.announcedAdded) > added.0 })
            for client in [here, there] {
                #expect(Engine.ok(try await client.request("PROFILE"))["totals"]?["logs"]?.intValue == 2)
            }
            let after = (first.counter(Self.caughtUp), second.counter(Self.caughtUp), first.counter(Self.loaded), second.counter(Self.loaded))
            #expect(after == reads, "no session read what the other instance committed")
        }
    }

    /// A push stored on one instance reaches the user's connection on the other as it came with the commit's
    /// announcement, without a read of the store there.
    @Test func pushesStoredOnOneInstanceReachTheOtherWithoutARead() async throws {
        let user = try await LaurelTestDatabase.createUser("pushed-across")
        try await Self.onTwoInstances(user) { _, here, second, there in
            let reads = second.counter(Self.pushReads)
            Engine.ok(try await here.request("LOG", Engine.log("pushups", amount: 10, id: "p1")))
            let unlock = try await there.push("UNLOCK")
            #expect(unlock.object["id"]?.stringValue == "first_exercise")
            // The same line as the writing connection's own (which follows its answer).
            #expect(try await here.push("UNLOCK").raw == unlock.raw)
            #expect(second.counter(Self.pushReads) == reads)
        }
    }

    /// A push announced to the other instance comes there once (protocol.md: pushed exactly once, whatever the
    /// number of instances), whatever that instance hears of the user afterwards.
    @Test func anAnnouncedPushComesOnceToTheOtherInstance() async throws {
        let user = try await LaurelTestDatabase.createUser("pushed-once")
        try await Self.onTwoInstances(user) { _, here, _, there in
            Engine.ok(try await here.request("LOG", Engine.log("pushups", amount: 10, id: "o1")))
            #expect(try await there.push("UNLOCK").object["id"]?.stringValue == "first_exercise")
            Engine.ok(try await there.request("LOG", Engine.log("pushups", amount: 10, id: "o2")))
            Engine.ok(try await here.request("LOG", Engine.log("pushups", amount: 10, id: "o3")))
            Engine.ok(try await there.request("NOTIFICATIONS"))
            let again = there.pushes.withLock { $0 }.filter { $0.kind == "UNLOCK" && $0.object["id"]?.stringValue == "first_exercise" }
            #expect(again.isEmpty)
        }
    }

    /// An instance that stored a user's pushes itself knows it has delivered them: another instance's later write that
    /// stores none (its announcement names the same last push seq) starts no catch-up of pushes there.
    @Test func aWriteElsewhereWithoutPushesStartsNoCatchUpWhereThePushesWereStored() async throws {
        let user = try await LaurelTestDatabase.createUser("no-catch-up")
        try await Self.onTwoInstances(user) { first, here, second, there in
            let catchUps = first.counter(Self.pushCatchUps)
            Engine.ok(try await here.request("LOG", Engine.log("pushups", amount: 10, id: "n1")))
            #expect(try await there.push("UNLOCK").object["id"]?.stringValue == "first_exercise")
            // The second LOG of the day on the other instance: no unlock, no level, no streak news.
            let second = Engine.ok(try await there.request("LOG", Engine.log("pushups", amount: 1, id: "n2")))
            #expect(Engine.ids(second["unlocked"]).isEmpty)
            let heard = try await Eventually.holds {
                Engine.ok(try await here.request("PROFILE"))["totals"]?["logs"]?.intValue == 2
            }
            #expect(heard)
            #expect(first.counter(Self.pushCatchUps) == catchUps)
        }
    }

    /// Runs `body` with two instances sharing the database and one authenticated connection of `user` on each,
    /// both past the evaluation each AUTH runs after its answer (a request answered after it is behind it).
    static func onTwoInstances(
        _ user: TestUser, hearsStateVersions: Bool = true,
        _ body: @Sendable (_ first: RunningTestServer, _ here: LineClient, _ second: RunningTestServer, _ there: LineClient) async throws -> Void
    ) async throws {
        try await TestServer.withServer(hearsStateVersions: hearsStateVersions) { first in
            try await TestServer.withServer(hearsStateVersions: hearsStateVersions) { second in
                let here = try await LineClient.authenticated(port: first.port, token: user.token)
                let there = try await LineClient.authenticated(port: second.port, token: user.token)
                Engine.ok(try await here.request("PING"))
                Engine.ok(try await there.request("PING"))
                try await body(first, here, second, there)
            }
        }
    }

    static let loaded = "laurel_session_progress_total{source=\"store\"}"
    static let held = "laurel_session_progress_total{source=\"session\"}"
    static let caughtUp = "laurel_session_progress_total{source=\"caught_up\"}"
    static let atSessionVersion = "laurel_writes_total{route=\"session_version\"}"
    static let underLock = "laurel_writes_total{route=\"user_lock\"}"
    static let announcedAdded = "laurel_announced_changes_added_total"
    static let greetingsHeard = "laurel_other_instances_heard_total{as=\"greeting\"}"
    static let otherInstancesHeard = "laurel_other_instances_heard_total{as=\"other\"}"
    static let pushCatchUps = "laurel_push_catch_ups_total"
    static let stale = "laurel_stale_commits_total"
    static let pushReads = "laurel_push_catch_up_reads_total"
}
