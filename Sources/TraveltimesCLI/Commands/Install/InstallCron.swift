import CommuteCore
import FoundationEssentials

extension Commands {
    enum InstallCronCommand {
        static let command = Command(
            name: "install cron",
            summary: "Add the refresh and tick lines to your crontab",
            options: [InstallOptions.refreshEvery, InstallOptions.dryRun, InstallOptions.force],
            discussion: """
                Reads `crontab -l`, puts the lines between `# BEGIN traveltimes` and `# END traveltimes`
                (replacing the block written before), and writes the table back with `crontab -`. Every
                other line stays byte for byte. The lines run this binary by its absolute path, with
                --quiet and TRAVELTIMES_HOME set to this store; running it again changes nothing. Without
                a crontab command it prints the lines to paste, and exits 69 (with --dry-run, it says
                so and exits 0).
                """
        ) { invocation in
            let io = invocation.io
            let table = readCrontab(invocation)
            let plan = try planned(invocation) { binary, store, interval, force throws(InstallProblem) in
                try Installation.cronPlan(table: table, binary: binary, store: store, refreshEvery: interval, force: force)
            }
            let block = plan.block
            guard let table, let merged = plan.table else {
                // A dry run says what it would do, and succeeds: it was asked to change nothing.
                if invocation.isSet(InstallOptions.dryRun) {
                    io.out("There is no crontab command here: install cron would print these lines to add with your scheduler, and exit 69:")
                    for line in block { io.out("  " + Installation.text(ofByteString: line)) }
                    return
                }
                io.err("traveltimes: there is no crontab command here; add these lines with your scheduler:")
                for line in block { io.err("  " + Installation.text(ofByteString: line)) }
                throw NoCrontab()
            }
            if merged == table {
                io.out("Your crontab already has the traveltimes block, as it should be.")
                return
            }
            if invocation.isSet(InstallOptions.dryRun) {
                io.out("Would write this crontab:")
                io.writeOut(DisplayText.terminal(Installation.text(ofByteString: merged)))
                return
            }
            try writeCrontab(merged, invocation)
            io.out("Added to your crontab:")
            for line in block { io.out("  " + Installation.text(ofByteString: line)) }
            warnOfShellOnlySettings(invocation)
        }
    }
}
