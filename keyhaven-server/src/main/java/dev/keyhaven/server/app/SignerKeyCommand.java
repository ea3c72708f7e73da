package dev.keyhaven.server.app;

import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code signer-key}: prints the bundle signer's public key (hex, uncompressed), the key clients pass to
 * {@code @turnkey/crypto} as {@code dangerouslyOverrideSignerPublicKey}. Opens the store like {@code serve} (and so
 * creates the signer on a store that has none yet) without listening.
 */
@Command(
        name = "signer-key",
        mixinStandardHelpOptions = true,
        description = "Print the public key (hex, uncompressed P-256) that signs export bundles and import targets.")
final class SignerKeyCommand implements Callable<Integer> {

    @Mixin
    StoreOptions store;

    @Override
    public Integer call() {
        try (Keyhaven keyhaven = Keyhaven.open(store.config(), Clock.systemUTC())) {
            System.out.println(keyhaven.bundleSignerPublicKey());
            return 0;
        }
    }
}
