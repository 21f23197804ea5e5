import LaurelJSON
import LaurelProtocol
import NIOCore
import Testing

@Suite struct ServerLineTests {
    @Test func answerWithPayload() {
        let line = ServerLine(ByteBuffer(string: #"c12 OK {"unlocked":[],"note":"a b"}"#))
        #expect(line.tag == "c12")
        #expect(line.kind == "OK")
        #expect(line.payload == #"{"unlocked":[],"note":"a b"}"#)
        #expect(line.isOK && !line.isUntagged)
        #expect(line.object["note"] == "a b")
    }

    @Test func pushAndError() {
        let push = ServerLine(#"* UNLOCK {"id":"first-log"}"#)
        #expect(push.isPush && push.kind == "UNLOCK")
        let error = ServerLine(#"* ERR {"code":"line_too_long"}"#)
        #expect(error.isUntagged && !error.isPush)
        #expect(error.errorCode == "line_too_long")
    }

    /// Splitting is by the first two spaces exactly: none, one, an empty kind, and text that is not ASCII.
    @Test func spacesDecideTheParts() {
        let bare = ServerLine("c1")
        #expect(bare.tag == "c1" && bare.kind == "" && bare.payload == nil)
        let noPayload = ServerLine("c1 OK")
        #expect(noPayload.tag == "c1" && noPayload.kind == "OK" && noPayload.payload == nil)
        let emptyKind = ServerLine("c1  rest of it")
        #expect(emptyKind.tag == "c1" && emptyKind.kind == "" && emptyKind.payload == "rest of it")
        let emptyPayload = ServerLine("c1 OK ")
        #expect(emptyPayload.payload == "")
        let accented = ServerLine("é\u{301} OK {\"name\":\"Zoë 🏃\u{200D}♀️\"}")
        #expect(accented.tag == "é\u{301}" && accented.kind == "OK")
        #expect(accented.object["name"] == "Zoë 🏃\u{200D}♀️")
        let leading = ServerLine(" OK")
        #expect(leading.tag == "" && leading.kind == "OK" && leading.payload == nil)
    }
}
