package dev.keyhaven.server.app;

import dev.keyhaven.client.AuditLogVerifier.BrokenChainException;
import dev.keyhaven.server.audit.AuditExport;
import dev.keyhaven.server.audit.AuditVerification;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code audit verify} and {@code audit export}: what an auditor runs against the tamper-evident activity log. */
@Command(
        name = "audit",
        mixinStandardHelpOptions = true,
        description = "Verify or export the tamper-evident activity log.",
        subcommands = {AuditCommand.Verify.class, AuditCommand.Export.class})
final class AuditCommand implements Runnable {

    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }

    /** Exit status of a log that does not verify. */
    static final int BROKEN = 1;

    @Command(
            name = "verify",
            mixinStandardHelpOptions = true,
            description = "Check every organization's chain, its signed heads and the activity and vote rows against "
                    + "it. Exits 0 naming how many entries it checked, or 1 naming the first entry found wrong.")
    static final class Verify implements Callable<Integer> {
        @Mixin
        StoreOptions store;

        @Spec
        CommandSpec spec;

        @Option(
                names = "--identity-key",
                description = "The identity public key (hex) to check signed heads against, as pinned from the serve "
                        + "banner; default: the one stored in the database.")
        String identityKey;

        @Override
        public Integer call() {
            try (Keyhaven keyhaven = Keyhaven.open(store.config(), Clock.systemUTC())) {
                String key = identityKey != null ? identityKey : keyhaven.identityPublicKey();
                try {
                    AuditVerification.Checked checked =
                            keyhaven.auditVerification().verify(key);
                    spec.commandLine()
                            .getOut()
                            .println("audit log verified: " + checked.entries() + " entries in "
                                    + checked.organizations() + " organizations, " + checked.signedHeads()
                                    + " signed heads");
                    return 0;
                } catch (BrokenChainException broken) {
                    spec.commandLine().getErr().println("audit log broken: " + broken.getMessage());
                    return BROKEN;
                }
            }
        }
    }

    @Command(
            name = "export",
            mixinStandardHelpOptions = true,
            description = "Write one organization's chain and signed heads as JSON Lines, for keyhaven-client's "
                    + "AuditLogVerifier.")
    static final class Export implements Callable<Integer> {
        @Mixin
        StoreOptions store;

        @Spec
        CommandSpec spec;

        @Option(names = "--organization", required = true, description = "The organization's id.")
        String organizationId;

        @Option(names = "--out", required = true, description = "The file to write (replaced when it exists).")
        Path out;

        @Override
        public Integer call() {
            try (Keyhaven keyhaven = Keyhaven.open(store.config(), Clock.systemUTC())) {
                AuditExport.Written written = keyhaven.auditExport().write(organizationId, out);
                spec.commandLine()
                        .getOut()
                        .println(written.entries() + " entries and " + written.signedHeads()
                                + " signed heads written to " + out);
                return 0;
            } catch (BrokenChainException broken) {
                // An entry's content is its row, and the row is gone or edited: nothing to export for it.
                spec.commandLine().getErr().println("audit log broken: " + broken.getMessage());
                return BROKEN;
            }
        }
    }
}
