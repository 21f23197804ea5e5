import LaurelJSON
import LaurelProtocol
import NIOCore
import Testing

@Suite struct OutboundLineTests {
    @Test func responses() {
        #expect(String(buffer: OutboundLine.ok(tag: "a1")) == "a1 OK")
        #expect(String(buffer: OutboundLine.ok(tag: "a1", ["time": "2026-11-20T08:15:00Z"]))
            == #"a1 OK {"time":"2026-11-20T08:15:00Z"}"#)
        #expect(String(buffer: OutboundLine.ok(tag: "a1", [1, "x"])) == #"a1 OK [1,"x"]"#)
        #expect(String(buffer: OutboundLine.err(tag: "a1", .invalidArgument(field: "amount", message: "bad")))
            == #"a1 ERR {"code":"invalid_argument","message":"bad","field":"amount"}"#)
    }

    @Test func pushes() {
        #expect(String(buffer: OutboundLine.push(kind: "BYE", ["reason": "idle"])) == #"* BYE {"reason":"idle"}"#)
        #expect(String(buffer: OutboundLine.err(tag: "*", .lineTooLong(limit: 65536)))
            == #"* ERR {"code":"line_too_long","message":"line longer than 65536 bytes","limit":65536}"#)
    }

    @Test func errorObjectsCarryTheirDetails() {
        #expect(ProtocolError.unavailable().json["retryable"] == true)
        #expect(ProtocolError.unknownVerb("FOO").json["verb"] == "FOO")
        #expect(ProtocolError.notFound(field: "activity").json["field"] == "activity")
        let premium = ProtocolError.premiumRequired(feature: "templates", trialAvailable: true).json
        #expect(premium["feature"] == "templates")
        #expect(premium["trial_available"] == true)
        #expect(ProtocolError.rateLimited(retryAfterMs: 250).json["retry_after_ms"] == 250)
        #expect(ProtocolError.tooLarge(limit: 200).json["limit"] == 200)
        #expect(ProtocolError.conflict("name taken").json == ["code": "conflict", "message": "name taken"])
        #expect(ProtocolError.internal().code == .internal)
        #expect(ProtocolError.badRequest().code == .badRequest)
        #expect(ProtocolError.notAuthenticated().code == .notAuthenticated)
        #expect(ProtocolError.authFailed().code == .authFailed)
        let shadowing = ProtocolError(code: .conflict, message: "m", details: ["code": "x", "extra": 1])
        #expect(shadowing.json == ["code": "conflict", "message": "m", "extra": 1])
        #expect(ProtocolError.internal().json.keys == ["code", "message"])
    }

    @Test func errorCodesMatchTheSpec() {
        #expect(Set(ErrorCode.allCases.map(\.rawValue)) == [
            "bad_request", "unknown_verb", "invalid_argument", "not_authenticated", "auth_failed", "not_found",
            "conflict", "premium_required", "rate_limited", "too_large", "line_too_long", "unavailable", "internal",
        ])
    }
}
