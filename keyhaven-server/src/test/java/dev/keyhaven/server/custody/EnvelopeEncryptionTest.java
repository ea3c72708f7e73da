package dev.keyhaven.server.custody;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Envelope encryption: a data key per owner, wrapped by the KEK, which opens nothing else; rotation re-wraps the data
 * keys so the old KEK opens nothing, and a server still holding the old KEK follows the new one from its locator.
 */
class EnvelopeEncryptionTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final byte[] SECRET = HexFormat.of().parseHex("0123456789abcdef".repeat(4));
    private static final Clock CLOCK = Clock.systemUTC();

    @TempDir
    Path directory;

    private FileKek kek(String name) {
        return new FileKek(MasterKey.generate(directory.resolve(name), RANDOM), RANDOM);
    }

    private static KeySealer sealer(Kek kek, InMemoryKeys.Rows rows) {
        return new KeySealer(InMemoryKeys.dataKeys(kek, rows), RANDOM);
    }

    private static byte[] open(KeySealer sealer, String org, String id, SealedSecret sealed) {
        try (SecretBytes secret = sealer.open(SealPurpose.PRIVATE_KEY, org, id, sealed)) {
            return secret.apply(SecretKeyAccess.get(), byte[]::clone);
        }
    }

    private static SealedSecret seal(KeySealer sealer, String org, String id) {
        return sealer.seal(InMemoryKeys.TX, SealPurpose.PRIVATE_KEY, org, id, SecretBytes.copyOf(SECRET));
    }

    @Test
    void eachOwnerHasItsOwnDataKeyAndTheKekOpensNoSecretDirectly() {
        FileKek kek = kek("kek");
        InMemoryKeys.Rows rows = new InMemoryKeys.Rows();
        KeySealer sealer = sealer(kek, rows);
        SealedSecret first = seal(sealer, "org-1", "k");
        SealedSecret second = seal(sealer, "org-2", "k");
        seal(sealer, "org-1", "k2");

        assertThat(rows.dataKeys).containsOnlyKeys("org-1", "org-2");
        assertThat(rows.kek.generation()).isEqualTo(1);
        assertThat(rows.kek.locator()).contains(directory.resolve("kek").toUri().toString());
        assertThat(Base64.getDecoder().decode(first.base64())[0]).isEqualTo(KeySealer.VERSION);
        // The KEK unwraps data keys; a secret is not wrapped by it, under any binding.
        assertThatThrownBy(() -> kek.unwrap(
                        Base64.getDecoder().decode(first.base64()),
                        KeySealer.aad(SealPurpose.PRIVATE_KEY, "org-1", "k")))
                .isInstanceOf(CustodyException.class);
        try (SecretBytes dataKey =
                kek.unwrap(rows.dataKeys.get("org-1").wrapped().bytes(), DataKeys.dataKeyAad("org-1"))) {
            assertThat(dataKey.length()).isEqualTo(32);
        }
        // A data key row moved to another owner does not open.
        assertThatThrownBy(() -> kek.unwrap(rows.dataKeys.get("org-1").wrapped().bytes(), DataKeys.dataKeyAad("org-2")))
                .isInstanceOf(CustodyException.class);

        // A second server on the same rows (an empty cache) opens both.
        KeySealer other = sealer(kek, rows);
        assertThat(open(other, "org-1", "k", first)).isEqualTo(SECRET);
        assertThat(open(other, "org-2", "k", second)).isEqualTo(SECRET);
    }

    @Test
    void anotherKekRefusesToStartNamingTheRecordedOne() {
        InMemoryKeys.Rows rows = new InMemoryKeys.Rows();
        sealer(kek("kek"), rows);
        assertThatThrownBy(() -> sealer(kek("other"), rows))
                .isInstanceOf(CustodyException.class)
                .hasMessage("the KEK (file " + directory.resolve("other") + ") does not open this database; its "
                        + "current KEK is generation 1, file " + directory.resolve("kek") + "; refusing to start");
    }

    @Test
    void aSecretSealedBeforeEnvelopeEncryptionOpensWithTheKekItWasSealedUnder() {
        FileKek kek = kek("kek");
        KeySealer sealer = sealer(kek, new InMemoryKeys.Rows());
        byte[] legacy;
        try (SecretBytes secret = SecretBytes.copyOf(SECRET)) {
            legacy = kek.wrap(secret, KeySealer.aad(SealPurpose.PRIVATE_KEY, "org", "k"));
        }
        assertThat(legacy[0]).isEqualTo(KeySealer.LEGACY_VERSION);
        assertThat(open(sealer, "org", "k", SealedSecret.of(legacy))).isEqualTo(SECRET);
        assertThatThrownBy(() -> open(sealer, "org", "other", SealedSecret.of(legacy)))
                .isInstanceOf(CustodyException.class)
                .hasMessageContaining("sealed before envelope encryption");
    }

    @Test
    void rotationRewrapsEveryDataKeySoTheOldKekOpensNothingAndRunningServersFollow() {
        FileKek old = kek("old");
        FileKek fresh = kek("new");
        InMemoryKeys.Rows rows = new InMemoryKeys.Rows();
        KeySealer running = sealer(old, rows);
        SealedSecret used = seal(running, "org-1", "k");
        SealedSecret unused = seal(sealer(old, rows), "org-2", "k");

        KekRotation.Rotated rotated = KekRotation.rotate(InMemoryKeys.DIRECT, rows, old, fresh, RANDOM, CLOCK);

        assertThat(rotated).isEqualTo(new KekRotation.Rotated(2, 2));
        assertThat(rows.kek.generation()).isEqualTo(2);
        assertThat(rows.kek.locator()).contains(directory.resolve("new").toUri().toString());
        assertThat(DataKeys.opensCheck(old, rows.kek)).isFalse();
        assertThat(DataKeys.opensCheck(fresh, rows.kek)).isTrue();
        for (DataKeyRepository.WrappedDataKey key : rows.dataKeys.values()) {
            assertThat(key.kekGeneration()).isEqualTo(2);
            assertThatThrownBy(() -> old.unwrap(key.wrapped().bytes(), DataKeys.dataKeyAad(key.ownerId())))
                    .isInstanceOf(CustodyException.class);
        }
        assertThatThrownBy(() -> sealer(old, rows))
                .isInstanceOf(CustodyException.class)
                .hasMessageContaining("current KEK is generation 2, file " + directory.resolve("new"));

        // The running server still holds org-1's data key; org-2's it has never unwrapped, so it follows the
        // rotation to the new KEK (from the recorded locator) to open it, and wraps new data keys under it.
        assertThat(open(running, "org-1", "k", used)).isEqualTo(SECRET);
        assertThat(open(running, "org-2", "k", unused)).isEqualTo(SECRET);
        SealedSecret later = seal(running, "org-3", "k");
        assertThat(rows.dataKeys.get("org-3").kekGeneration()).isEqualTo(2);
        assertThat(open(sealer(fresh, rows), "org-3", "k", later)).isEqualTo(SECRET);
    }

    @Test
    void rotationRefusesAWrongCurrentKekOrTheKekItAlreadyHas() {
        FileKek kek = kek("kek");
        InMemoryKeys.Rows rows = new InMemoryKeys.Rows();
        seal(sealer(kek, rows), "org", "k");
        FileKek stranger = kek("stranger");
        assertThatThrownBy(() -> KekRotation.rotate(InMemoryKeys.DIRECT, rows, stranger, kek("next"), RANDOM, CLOCK))
                .isInstanceOf(CustodyException.class)
                .hasMessageStartingWith("the current KEK given (file " + directory.resolve("stranger")
                        + ") does not open this database");
        assertThatThrownBy(() -> KekRotation.rotate(InMemoryKeys.DIRECT, rows, kek, kek, RANDOM, CLOCK))
                .isInstanceOf(CustodyException.class)
                .hasMessageContaining("is already this database's KEK");
        assertThat(rows.kek.generation()).isEqualTo(1);
    }

    @Test
    void aLocatorSurvivesItsUriForm() {
        KekLocator file = new KekLocator.File(directory.resolve("a key"));
        assertThat(KekLocator.parse(file.uri())).isEqualTo(file);
        KekLocator token = new KekLocator.Pkcs11(
                Path.of("/usr/lib/softhsm/libsofthsm2.so"), "key haven;1", "kek/1", Path.of("/etc/keyhaven/pin"));
        assertThat(token.uri())
                .isEqualTo("pkcs11:token=key%20haven%3B1;object=kek%2F1;type=secret-key"
                        + "?module-path=%2Fusr%2Flib%2Fsofthsm%2Flibsofthsm2.so&pin-source=%2Fetc%2Fkeyhaven%2Fpin");
        assertThat(KekLocator.parse(token.uri())).isEqualTo(token);
        assertThatThrownBy(() -> KekLocator.parse("pkcs11:token=x"))
                .isInstanceOf(CustodyException.class)
                .hasMessageContaining("lacks one of token, object, module-path, pin-source");
        assertThatThrownBy(() -> KekLocator.parse("vault:x"))
                .isInstanceOf(CustodyException.class)
                .hasMessageContaining("neither file: nor pkcs11:");
    }
}
