package dev.keyhaven.server.app;

import dev.keyhaven.server.custody.CustodyException;
import dev.keyhaven.server.store.DatabaseOpenException;
import org.slf4j.bridge.SLF4JBridgeHandler;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code java -jar keyhaven.jar <command>}. */
@Command(
        name = "keyhaven",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Keyhaven: a self-hosted wallet, policy and user-management service with Turnkey's API.",
        subcommands = {
            InitCommand.class,
            ServeCommand.class,
            RequestCommand.class,
            SignerKeyCommand.class,
            WebhookKeysCommand.class,
            AuthProxyConfigCommand.class,
            BackupCommand.class,
            RestoreCommand.class,
            AuditCommand.class,
            KekCommand.class,
            CommandLine.HelpCommand.class
        },
        footer = {
            "",
            "Every option but --help and --version also reads an environment variable, named in its " + "description.",
            "Run 'keyhaven <command> --help' for a command's options."
        })
public final class Main implements Runnable {

    public static void main(String[] args) {
        SLF4JBridgeHandler.removeHandlersForRootLogger();
        SLF4JBridgeHandler.install();
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return new CommandLine(new Main())
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler(Main::failed);
    }

    /**
     * A database that cannot be opened is one line saying why, for whichever command opened it; its stack trace
     * would only bury the reason. Any other failure is shown as picocli shows it (with its stack trace).
     */
    private static int failed(Exception e, CommandLine command, CommandLine.ParseResult parsed) throws Exception {
        if (e instanceof DatabaseOpenException cannotOpen) {
            command.getErr().println("keyhaven: " + cannotOpen.getMessage());
            return 1;
        }
        if (e instanceof CustodyException refused) {
            // A KEK that is missing, wrong or on a token that refuses us: the message names the cause.
            command.getErr().println("keyhaven: " + refused.getMessage());
            return 1;
        }
        throw e;
    }

    @Override
    public void run() {
        commandLine().usage(System.out);
    }

    /** The build's version, from the jar manifest ({@code development build} when not run from the jar). */
    static String buildVersion() {
        String version = Main.class.getPackage().getImplementationVersion();
        return version == null ? "development build" : version;
    }

    /** The build's version, from the jar manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"keyhaven " + buildVersion()};
        }
    }
}
