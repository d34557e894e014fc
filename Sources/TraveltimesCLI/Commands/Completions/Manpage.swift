import CommuteCore
import FoundationEssentials

extension Commands {
    enum ManpageCommand {
        static let command = Command(
            name: "manpage",
            summary: "Print the manual page (roff), generated from the same commands as --help",
            discussion: """
                Scripts/install puts it in share/man/man1. By hand:
                  traveltimes manpage > ~/.local/share/man/man1/traveltimes.1 && man traveltimes
                """
        ) { invocation in
            invocation.io.writeOut(Manual.page)
        }
    }
}
