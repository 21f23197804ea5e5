import ArgumentParser

/// `laurel`: the achievements server and its operator commands.
@main
struct LaurelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "laurel",
        abstract: "Laurel, an achievements server: streaks, XP, levels and unlock pushes for habit and training apps.",
        subcommands: [ServeCommand.self, MigrateCommand.self, UserCommand.self, CatalogCommand.self, BoardsCommand.self])
}
