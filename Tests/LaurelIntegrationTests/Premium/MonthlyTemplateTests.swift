import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import Testing

/// A monthly template over real sockets and PostgreSQL: this month's tiers, named after the month, counting only this
/// month's logs (a backfill into last month counts for nothing listed), unlocked and pushed like any tier.
@Suite struct MonthlyTemplateTests {
    @Test func thisMonthsTiersCountThisMonthsLogs() async throws {
        let user = try await LaurelTestDatabase.createUser("monthly")
        try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)
            try await Templates.startTrial(app)
            let (template, id) = try await Templates.created(app, Templates.create("squats", "monthly", tiers: Templates.tiers([10, 20])))
            let today = TestClock.today()
            let month = today.monthKey
            let names = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
            #expect(Templates.achievements(template).map { $0["id"]?.stringValue ?? "" } == ["tpl.\(id).10.\(month)", "tpl.\(id).20.\(month)"])
            #expect(Templates.achievements(template).first?["name"]?.stringValue == "Squats Bronze (\(names[today.month - 1]) \(today.year))")

            // The last day of last month, when the backfill window reaches it: this month's tiers do not count it.
            if today.day <= 29 {
                let lastMonth = Engine.ok(try await app.request("LOG", Engine.log("squats", amount: 50, at: TestClock.noon(daysAgo: today.day))))
                #expect(Engine.ids(lastMonth["unlocked"]).filter { $0.hasPrefix("tpl.") }.isEmpty)
            }
            let logged = Engine.ok(try await app.request("LOG", Engine.log("squats", amount: 12)))
            #expect(Engine.ids(logged["unlocked"]).filter { $0.hasPrefix("tpl.") } == ["tpl.\(id).10.\(month)"])
            let pushes = try await app.wait { Templates.unlocks($0, template: id).count >= 1 }
            #expect(Templates.unlocks(pushes, template: id).first?["progress"] == 10)
            let silver = Engine.ok(try await app.request("ACHIEVEMENT", ["id": .string("tpl.\(id).20.\(month)"), "explain": true]))
            #expect(silver["progress"] == 12 && silver["explain"]?["rule"] == "month_total" && silver["explain"]?["remaining"] == 8)
            #expect(silver["explain"]?["deadline"] == TestClock.text(TestClock.utc(today.nextMonthStart, hour: 0)))
        }
    }
}
