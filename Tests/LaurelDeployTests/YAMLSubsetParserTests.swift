import Testing

/// The YAML reader the Compose checks rely on: what it reads, and that it refuses what it does not understand.
@Suite struct YAMLSubsetParserTests {
    @Test func readsNestedMappingsSequencesScalarsAndAliases() throws {
        let text = """
            # a comment
            base: &shared
              KEY: "quoted # not a comment"
              OTHER: 'it''s'   # a comment
            list:
              - plain text
              - "7420:7420"
              - path/with:colon
              - name: first
                size: 2
            flow: ["CMD-SHELL", "pg_isready -U $$USER", plain]
            empty_flow: {}
            inline_map: {a: 1, b: "two"}
            same_indent:
            - x
            - y
            copy: *shared
            nothing:
            """
        let root = try YAMLSubsetParser.parse(text)
        #expect(root.mapping?.keys == ["base", "list", "flow", "empty_flow", "inline_map", "same_indent", "copy", "nothing"])
        #expect(root["base"]?["KEY"] == .scalar("quoted # not a comment"))
        #expect(root["base"]?["OTHER"] == .scalar("it's"))
        let list = try #require(root["list"]?.sequence)
        #expect(list.count == 4)
        #expect(list[0] == .scalar("plain text"))
        #expect(list[1] == .scalar("7420:7420"))
        #expect(list[2] == .scalar("path/with:colon"))
        #expect(list[3]["name"] == .scalar("first"))
        #expect(list[3]["size"] == .scalar("2"))
        #expect(root["flow"] == .sequence([.scalar("CMD-SHELL"), .scalar("pg_isready -U $$USER"), .scalar("plain")]))
        #expect(root["empty_flow"]?.mapping?.entries.isEmpty == true)
        #expect(root["inline_map"]?["a"] == .scalar("1"))
        #expect(root["inline_map"]?["b"] == .scalar("two"))
        #expect(root["same_indent"] == .sequence([.scalar("x"), .scalar("y")]))
        #expect(root["copy"] == root["base"])
        #expect(root["nothing"] == .null)
    }

    @Test(arguments: [
        ("a:\n\tb: 1", "tab indentation"),
        ("a: *missing", "an alias without an anchor"),
        ("a: 1\na: 2", "a key twice"),
        ("a: 1\n  b: 2", "a deeper line under a scalar"),
        ("a:\n  b: 1\n c: 2", "an indentation that matches no level"),
        ("just text", "a line that is no key and no item"),
        ("a: |\n  text", "a block scalar"),
        ("a: \"open", "an unterminated quote"),
        ("a: [1, 2", "an unterminated flow sequence"),
        ("a: 1\n- b", "a sequence item after a mapping"),
    ])
    func refusesWhatItDoesNotUnderstand(text: String, because: String) {
        #expect(throws: YAMLSubsetParser.ParseError.self, "\(because)") { try YAMLSubsetParser.parse(text) }
    }
}
