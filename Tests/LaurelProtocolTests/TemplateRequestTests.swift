import LaurelCore
import LaurelJSON
import LaurelProtocol
import Testing

@Suite struct TemplateRequestTests {
    private let threeTiers = #"[{"tier":"bronze","target":3},{"tier":"silver","target":7,"label":"A week","icon":"flame"},{"tier":"gold","target":30}]"#

    @Test func createWithTiers() {
        #expect(request(#"TEMPLATE.CREATE {"activity":"plank","type":"streak","tiers":\#(threeTiers),"name":" Plank streak "}"#)
            == AnyHashable(TemplateCreateRequest(
                activity: .activity("plank"), type: .streak,
                tiers: [
                    TemplateTier(tier: "bronze", target: 3),
                    TemplateTier(tier: "silver", target: 7, label: "A week", icon: "flame"),
                    TemplateTier(tier: "gold", target: 30),
                ],
                name: "Plank streak")))
    }

    @Test func createForAllActivitiesOrFromAPreset() {
        #expect(request(#"TEMPLATE.CREATE {"activity":"*","type":"volume"}"#)
            == AnyHashable(TemplateCreateRequest(activity: .allActivities, type: .volume)))
        #expect(request(#"TEMPLATE.CREATE {"activity":"x","preset":"habit_builder"}"#)
            == AnyHashable(TemplateCreateRequest(activity: .activity("x"), type: nil, preset: "habit_builder")))
        #expect(request(#"TEMPLATE.CREATE {"activity":"x","type":"speed","tiers":[{"tier":"bronze","target":50,"window_minutes":10}]}"#)
            == AnyHashable(TemplateCreateRequest(
                activity: .activity("x"), type: .speed, tiers: [TemplateTier(tier: "bronze", target: 50, windowMinutes: 10)])))
    }

    @Test func createChecksFields() {
        #expect(invalidField(#"TEMPLATE.CREATE {"type":"volume"}"#) == "activity")
        #expect(invalidField(#"TEMPLATE.CREATE {"activity":"x"}"#) == "type")
        #expect(invalidField(#"TEMPLATE.CREATE {"activity":"x","type":"hourly"}"#) == "type")
        #expect(invalidField(#"TEMPLATE.CREATE {"activity":"x","type":"monthly"}"#) == nil)
        #expect(invalidField(#"TEMPLATE.CREATE {"activity":"x","type":"progressive"}"#) == nil)
        #expect(invalidField(#"TEMPLATE.CREATE {"activity":"x","type":"volume","preset":""}"#) == "preset")
        #expect(invalidField(#"TEMPLATE.CREATE {"activity":"x","type":"volume","name":""}"#) == "name")
        #expect(invalidField(#"TEMPLATE.CREATE {"activity":"x","type":"volume","active":true}"#) == "active")
    }

    @Test(arguments: [
        (#"{}"#, "tiers"),
        (#"[]"#, "tiers"),
        (#"[1]"#, "tiers[0]"),
        (#"[{"tier":"a","target":1},"b"]"#, "tiers[1]"),
        (#"[{"target":1}]"#, "tiers[0].tier"),
        (#"[{"tier":"a"}]"#, "tiers[0].target"),
        (#"[{"tier":"a","target":0}]"#, "tiers[0].target"),
        (#"[{"tier":"a","target":1000000001}]"#, "tiers[0].target"),
        (#"[{"tier":"a","target":1.5}]"#, "tiers[0].target"),
        (#"[{"tier":"a","target":5},{"tier":"b","target":5}]"#, "tiers[1].target"),
        (#"[{"tier":"a","target":5},{"tier":"b","target":9},{"tier":"c","target":2}]"#, "tiers[2].target"),
        (#"[{"tier":"gold","target":5},{"tier":" Gold ","target":9}]"#, "tiers[1].tier"),
        (#"[{"tier":"a","target":5,"window_minutes":0}]"#, "tiers[0].window_minutes"),
        (#"[{"tier":"a","target":5,"window_minutes":1441}]"#, "tiers[0].window_minutes"),
        (#"[{"tier":"a","target":5,"label":""}]"#, "tiers[0].label"),
        (#"[{"tier":"a","target":5,"icon":7}]"#, "tiers[0].icon"),
        (#"[{"tier":"a","target":5,"colour":"red"}]"#, "tiers[0].colour"),
    ])
    func tierErrorsNameTheTierField(tiers: String, field: String) {
        #expect(invalidField(#"TEMPLATE.CREATE {"activity":"x","type":"volume","tiers":\#(tiers)}"#) == field)
        #expect(invalidField(#"TEMPLATE.UPDATE {"id":"t1","tiers":\#(tiers)}"#) == field)
    }

    @Test func tierCountIsOneToTen() {
        let ten = (1...10).map { #"{"tier":"t\#($0)","target":\#($0)}"# }.joined(separator: ",")
        #expect(request(#"TEMPLATE.UPDATE {"id":"t1","tiers":[\#(ten)]}"#) != nil)
        let eleven = ten + #",{"tier":"t11","target":11}"#
        #expect(invalidField(#"TEMPLATE.UPDATE {"id":"t1","tiers":[\#(eleven)]}"#) == "tiers")
    }

    @Test func updateDeleteAndListing() {
        #expect(request(#"TEMPLATE.UPDATE {"id":"t1","name":"New","active":false}"#)
            == AnyHashable(TemplateUpdateRequest(id: "t1", name: "New", active: false)))
        #expect(invalidField(#"TEMPLATE.UPDATE {"name":"x"}"#) == "id")
        #expect(invalidField(#"TEMPLATE.UPDATE {"id":"t1","active":"no"}"#) == "active")
        #expect(invalidField(#"TEMPLATE.UPDATE {"id":"t1","type":"volume"}"#) == "type")
        #expect(request(#"TEMPLATE.DELETE {"id":"t1"}"#) == AnyHashable(IDRequest(id: "t1")))
        #expect(invalidField("TEMPLATE.DELETE") == "id")
        #expect(request("TEMPLATES") == AnyHashable(TemplatesRequest()))
        #expect(request(#"TEMPLATES {"activity":"plank"}"#) == AnyHashable(TemplatesRequest(activity: "plank")))
        #expect(invalidField(#"TEMPLATES {"activity":""}"#) == "activity")
    }

    @Test func exportAndImport() {
        #expect(request("TEMPLATE.EXPORT") == AnyHashable(TemplateExportRequest(ids: nil)))
        #expect(request(#"TEMPLATE.EXPORT {"ids":["a","b"]}"#) == AnyHashable(TemplateExportRequest(ids: ["a", "b"])))
        #expect(request(#"TEMPLATE.EXPORT {"ids":[]}"#) == AnyHashable(TemplateExportRequest(ids: [])))
        #expect(invalidField(#"TEMPLATE.EXPORT {"ids":"a"}"#) == "ids")
        #expect(invalidField(#"TEMPLATE.EXPORT {"ids":["a",2]}"#) == "ids[1]")
        #expect(invalidField(#"TEMPLATE.EXPORT {"ids":["a",""]}"#) == "ids[1]")
        let document: JSONObject = ["laurel_templates": 1, "templates": [["name": "x"]]]
        #expect(request(#"TEMPLATE.IMPORT {"document":\#(JSONValue.object(document).serialized())}"#)
            == AnyHashable(TemplateImportRequest(document: document)))
        #expect(invalidField("TEMPLATE.IMPORT") == "document")
        #expect(invalidField(#"TEMPLATE.IMPORT {"document":[]}"#) == "document")
        #expect(invalidField(#"TEMPLATE.IMPORT {"document":"{}"}"#) == "document")
    }
}

/// The marketplace's requests: fields, defaults and bounds.
@Suite struct MarketplaceRequestTests {
    @Test func fieldsAndBounds() {
        #expect(request(#"TEMPLATE.PUBLISH {"id":"t1"}"#) == AnyHashable(TemplatePublishRequest(id: "t1")))
        #expect(request(#"TEMPLATE.PUBLISH {"id":"t1","description":"  Good one "}"#) == AnyHashable(TemplatePublishRequest(id: "t1", description: "Good one")))
        #expect(invalidField(#"TEMPLATE.PUBLISH {"description":"x"}"#) == "id")
        #expect(invalidField("TEMPLATE.PUBLISH {\"id\":\"t\",\"description\":\"\(String(repeating: "d", count: 281))\"}") == "description")
        #expect(request(#"TEMPLATE.UNPUBLISH {"listing_id":"l1"}"#) == AnyHashable(ListingRequest(listingID: "l1")))
        #expect(invalidField("TEMPLATE.UNPUBLISH") == "listing_id")
        #expect(request(#"TEMPLATE.INSTALL {"listing_id":"l1","activity":"Rowing"}"#) == AnyHashable(TemplateInstallRequest(listingID: "l1", activity: "Rowing")))
        #expect(request("MARKET") == AnyHashable(MarketRequest()))
        #expect(request(#"MARKET {"type":"daily","sort":"new","limit":100,"after":"c"}"#)
            == AnyHashable(MarketRequest(type: .daily, sort: .new, limit: 100, after: "c")))
        #expect(invalidField(#"MARKET {"limit":101}"#) == "limit")
        #expect(invalidField(#"MARKET {"sort":"best"}"#) == "sort")
    }
}
