package dev.keyhaven.server.app;

import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code webhook-keys rotate}: retires the webhook signing key and creates the next one, which signs from then on
 * (running servers pick it up within seconds). The retired key stays in the JWKS for the grace period.
 */
@Command(
        name = "webhook-keys",
        mixinStandardHelpOptions = true,
        description = "Manage the Ed25519 keys that sign webhook deliveries.",
        subcommands = {WebhookKeysCommand.Rotate.class})
final class WebhookKeysCommand implements Runnable {

    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }

    /** Rotates the signing key and prints the new key id. */
    @Command(
            name = "rotate",
            mixinStandardHelpOptions = true,
            description = "Retire the signing key and create the next; prints {\"keyId\"} of the new key.")
    static final class Rotate implements Callable<Integer> {
        @Mixin
        StoreOptions store;

        @Override
        public Integer call() {
            try (Keyhaven keyhaven = Keyhaven.open(store.config(), Clock.systemUTC())) {
                System.out.println("{\"keyId\":\"" + keyhaven.webhookKeys().rotate() + "\"}");
                return 0;
            }
        }
    }
}
