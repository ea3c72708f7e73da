package dev.keyhaven.server.custody;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.bundle.TurnkeyHpke;
import dev.keyhaven.server.testing.Bundles.TargetKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An HPKE target opens what a client seals to it, only for its own organization and resource, and never for a purpose
 * whose plaintext is key material; a message sealed to a client's key opens with that key.
 */
class HpkeTargetsTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final byte[] MESSAGE =
            "{\"otp_code\":\"123456\",\"public_key\":\"02ab\"}".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path directory;

    private static TurnkeyHpke.Encrypted sealTo(String publicKeyHex, byte[] message) {
        try (SecretBytes plain = SecretBytes.copyOf(message)) {
            return TurnkeyHpke.seal(HexFormat.of().parseHex(publicKeyHex), plain);
        }
    }

    @Test
    void aTargetOpensWhatIsSealedToItForItsOwnResourceOnly() {
        KeySealer sealer = InMemoryKeys.sealer(MasterKey.generate(directory.resolve("kek"), RANDOM));
        HpkeTargets targets = new HpkeTargets(sealer, RANDOM);
        HpkeTargets.Target target = targets.newTarget(InMemoryKeys.TX, SealPurpose.OTP_TARGET, "org-1", "otp-1");
        assertThat(target.publicKeyHex()).matches("04[0-9a-f]{128}");

        TurnkeyHpke.Encrypted encrypted = sealTo(target.publicKeyHex(), MESSAGE);
        assertThat(targets.open(
                        SealPurpose.OTP_TARGET,
                        "org-1",
                        "otp-1",
                        target.sealedKey(),
                        encrypted.encappedPublic(),
                        encrypted.ciphertext()))
                .isEqualTo(MESSAGE);
        assertThatThrownBy(() -> targets.open(
                        SealPurpose.OTP_TARGET,
                        "org-1",
                        "otp-2",
                        target.sealedKey(),
                        encrypted.encappedPublic(),
                        encrypted.ciphertext()))
                .isInstanceOf(CustodyException.class);

        HpkeTargets.Target other = targets.newTarget(InMemoryKeys.TX, SealPurpose.OTP_TARGET, "org-1", "otp-2");
        TurnkeyHpke.Encrypted elsewhere = sealTo(other.publicKeyHex(), MESSAGE);
        assertThatThrownBy(() -> targets.open(
                        SealPurpose.OTP_TARGET,
                        "org-1",
                        "otp-1",
                        target.sealedKey(),
                        elsewhere.encappedPublic(),
                        elsewhere.ciphertext()))
                .as("sealed to another target")
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void noTargetOfAPurposeHoldingKeysIsMadeOrOpened() {
        KeySealer sealer = InMemoryKeys.sealer(MasterKey.generate(directory.resolve("kek"), RANDOM));
        HpkeTargets targets = new HpkeTargets(sealer, RANDOM);
        for (SealPurpose keys :
                new SealPurpose[] {SealPurpose.IMPORT_TARGET, SealPurpose.PRIVATE_KEY, SealPurpose.WALLET_MNEMONIC}) {
            SealedSecret sealed;
            try (SecretBytes key = SecretBytes.copyOf(new byte[32])) {
                sealed = sealer.seal(InMemoryKeys.TX, keys, "org-1", "res-1", key);
            }
            assertThatThrownBy(() -> targets.newTarget(InMemoryKeys.TX, keys, "org-1", "res-1"))
                    .as(keys.name())
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> targets.open(keys, "org-1", "res-1", sealed, new byte[65], new byte[32]))
                    .as(keys.name())
                    .isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aCredentialBundleOpensWithTheClientsKey() {
        TargetKey client = TargetKey.generate();
        String bundle = HpkeTargets.credentialBundle(HexFormat.of().parseHex(client.uncompressed()), MESSAGE);
        assertThat(client.open(TurnkeyHpke.Encrypted.ofCredentialBundle(bundle)))
                .isEqualTo(MESSAGE);
    }
}
