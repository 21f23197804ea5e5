import LaurelCore
import Testing

/// A built-in activity is found by id or name, in any case, and the first one in catalog order that either names wins
/// (what a scan of the catalog finds; the lookup keeps a table of the names so that a LOG lowercases nothing).
@Suite struct CatalogActivityLookupTests {
    private let catalog = Catalog(name: "test", activities: [
        Activity(id: "pushups", name: "Push-ups", unit: .reps, custom: false),
        Activity(id: "plank", name: "Squats", unit: .seconds, custom: false),
        Activity(id: "squats", name: "Deep squats", unit: .reps, custom: false),
    ])

    @Test(arguments: [
        ("pushups", "pushups"), ("PushUps", "pushups"), ("push-ups", "pushups"), ("PUSH-UPS", "pushups"),
        ("plank", "plank"), ("deep squats", "squats"), ("Deep Squats", "squats"),
        // "squats" is one activity's id and an earlier one's name: the earlier one is found.
        ("squats", "plank"), ("SQUATS", "plank"),
    ])
    func foundByIdOrNameInAnyCase(asked: String, found: String) {
        #expect(catalog.builtinActivity(named: asked)?.id == found)
    }

    @Test(arguments: ["", "push ups", "pushups ", "situps"])
    func anythingElseIsNotFound(asked: String) {
        #expect(catalog.builtinActivity(named: asked) == nil)
    }
}
