package dev.keyhaven.server.custody;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import dev.keyhaven.server.testing.SoftHsm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.AuthProvider;
import java.security.Key;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.Security;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.crypto.spec.SecretKeySpec;
import javax.security.auth.login.LoginException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Pkcs11Kek} against SoftHSM2 loaded into this JVM (two tokens, {@link SoftHsm#JVM_TOKENS}). Every test uses
 * key labels of its own and closes what it opens, so the tokens' login state is the same before and after each.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class Pkcs11KekIT {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String ALPHA = SoftHsm.JVM_TOKENS.get(0);
    private static final String BETA = SoftHsm.JVM_TOKENS.get(1);
    /** Where two keys share a label, which makes SunPKCS11's key store refuse the whole token. */
    private static final String CROWDED = SoftHsm.JVM_TOKENS.get(2);

    private static SoftHsm softHsm;
    private static Path pinFile;

    @BeforeAll
    static void softHsm() {
        softHsm = SoftHsm.inThisJvm();
        pinFile = softHsm.pinFile(SoftHsm.PIN);
    }

    @Test
    void initCreatesASensitiveNonExtractableKeyOnceAndASecondInitFindsIt() throws Exception {
        KekLocator.Pkcs11 locator = locator(ALPHA, newLabel());
        try (Pkcs11Kek kek = Pkcs11Kek.init(locator)) {
            assertThat(kek.created()).isTrue();
            assertThat(kek.locator()).isEqualTo(locator);
        }
        try (Pkcs11Kek again = Pkcs11Kek.init(locator)) {
            assertThat(again.created()).isFalse();
        }
        try (Pkcs11Kek opened = Pkcs11Kek.open(locator)) {
            assertThat(opened.created()).isFalse();
        }
        // Checked independently of Pkcs11Kek: SunPKCS11's own key store, and the attributes read from the token.
        try (TokenKeyStore token = TokenKeyStore.login(ALPHA)) {
            Key key = token.keyStore.getKey(locator.keyLabel(), null);
            assertThat(key.getAlgorithm()).isEqualTo("AES");
            assertThat(key.getEncoded()).isNull();
            try (Pkcs11Module.Session session = token.module.openSession(token.slot, false)) {
                long[] keys = session.secretKeys(locator.keyLabel());
                assertThat(keys).hasSize(1);
                assertThat(session.attributesOf(keys[0]))
                        .isEqualTo(new Pkcs11Module.KeyAttributes(Pkcs11Module.CKK_AES, 32, true, false));
            }
        }
    }

    @Test
    void wrapsAndUnwrapsADataKeyInTheDocumentedFormat() {
        try (Pkcs11Kek kek = Pkcs11Kek.init(locator(ALPHA, newLabel()))) {
            byte[] dataKey = random(32);
            byte[] aad = "organization 1 / data key".getBytes(StandardCharsets.UTF_8);
            byte[] wrapped = kek.wrap(SecretBytes.copyOf(dataKey), aad);
            byte[] again = kek.wrap(SecretBytes.copyOf(dataKey), aad);

            assertThat(wrapped).hasSize(1 + 12 + 32 + 16);
            assertThat(wrapped[0]).isEqualTo((byte) 1);
            assertThat(again).isNotEqualTo(wrapped); // a fresh IV each time
            try (SecretBytes opened = kek.unwrap(wrapped, aad);
                    SecretBytes openedAgain = kek.unwrap(again, aad)) {
                assertThat(opened.apply(SecretKeyAccess.get(), byte[]::clone)).isEqualTo(dataKey);
                assertThat(openedAgain.apply(SecretKeyAccess.get(), byte[]::clone))
                        .isEqualTo(dataKey);
            }
        }
    }

    @Test
    void whatWasWrappedForOneAadDoesNotOpenForAnotherNorWhenAltered() {
        KekLocator.Pkcs11 locator = locator(ALPHA, newLabel());
        try (Pkcs11Kek kek = Pkcs11Kek.init(locator)) {
            byte[] wrapped = kek.wrap(SecretBytes.copyOf(random(32)), new byte[] {1});
            String doesNotOpen = "a wrapped data key does not open with " + locator
                    + " (another KEK wrapped it, or it was moved or altered)";

            assertThatThrownBy(() -> kek.unwrap(wrapped, new byte[] {2}))
                    .isInstanceOf(CustodyException.class)
                    .hasMessage(doesNotOpen);
            byte[] altered = wrapped.clone();
            altered[20] ^= 1;
            assertThatThrownBy(() -> kek.unwrap(altered, new byte[] {1}))
                    .isInstanceOf(CustodyException.class)
                    .hasMessage(doesNotOpen);
            byte[] otherVersion = wrapped.clone();
            otherVersion[0] = 2;
            assertThatThrownBy(() -> kek.unwrap(otherVersion, new byte[] {1}))
                    .isInstanceOf(CustodyException.class)
                    .hasMessage(
                            "a wrapped data key is not in the format of " + locator + " (version 1, 29 bytes or more)");
        }
    }

    @Test
    void aDataKeyWrappedByAnotherTokensKeyOrAnotherKeyOnTheSameTokenDoesNotOpen() {
        String label = newLabel();
        try (Pkcs11Kek alpha = Pkcs11Kek.init(locator(ALPHA, label));
                Pkcs11Kek beta = Pkcs11Kek.init(locator(BETA, label));
                Pkcs11Kek alphaOther = Pkcs11Kek.init(locator(ALPHA, newLabel()))) {
            byte[] aad = {7};
            byte[] byBeta = beta.wrap(SecretBytes.copyOf(random(32)), aad);
            byte[] byAlphaOther = alphaOther.wrap(SecretBytes.copyOf(random(32)), aad);

            assertThatThrownBy(() -> alpha.unwrap(byBeta, aad))
                    .isInstanceOf(CustodyException.class)
                    .hasMessageStartingWith("a wrapped data key does not open with PKCS#11 key '" + label
                            + "' on token '" + ALPHA + "'");
            assertThatThrownBy(() -> alpha.unwrap(byAlphaOther, aad))
                    .isInstanceOf(CustodyException.class)
                    .hasMessageStartingWith("a wrapped data key does not open with");
        }
    }

    @Test
    void twoTokensOfOneModuleServeAtOnceAndClosingOneKekLeavesTheOthersWorking() {
        try (Pkcs11Kek alpha = Pkcs11Kek.init(locator(ALPHA, newLabel()));
                Pkcs11Kek beta = Pkcs11Kek.init(locator(BETA, newLabel()))) {
            byte[] dataKey = random(32);
            byte[] byAlpha = alpha.wrap(SecretBytes.copyOf(dataKey), new byte[0]);
            byte[] byBeta = beta.wrap(SecretBytes.copyOf(dataKey), new byte[0]);
            KekLocator.Pkcs11 second = locator(ALPHA, newLabel());
            Pkcs11Kek.init(second).close(); // the token's login is shared: this close must not log alpha out
            try (SecretBytes a = alpha.unwrap(byAlpha, new byte[0]);
                    SecretBytes b = beta.unwrap(byBeta, new byte[0])) {
                assertThat(a.apply(SecretKeyAccess.get(), byte[]::clone)).isEqualTo(dataKey);
                assertThat(b.apply(SecretKeyAccess.get(), byte[]::clone)).isEqualTo(dataKey);
            }
        }
    }

    @Test
    void eightThreadsUnwrapAtOnce() throws Exception {
        int threads = 8;
        int perThread = 40;
        try (Pkcs11Kek kek = Pkcs11Kek.init(locator(ALPHA, newLabel()))) {
            List<byte[]> dataKeys = new ArrayList<>();
            List<byte[]> wrapped = new ArrayList<>();
            for (int i = 0; i < threads * perThread; i++) {
                byte[] dataKey = random(32);
                dataKeys.add(dataKey);
                wrapped.add(kek.wrap(SecretBytes.copyOf(dataKey), aad(i)));
            }
            CyclicBarrier start = new CyclicBarrier(threads);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<Integer>> results = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int first = t * perThread;
                    results.add(pool.submit(() -> {
                        start.await();
                        int opened = 0;
                        for (int i = first; i < first + perThread; i++) {
                            try (SecretBytes key = kek.unwrap(wrapped.get(i), aad(i))) {
                                assertThat(key.apply(SecretKeyAccess.get(), byte[]::clone))
                                        .isEqualTo(dataKeys.get(i));
                                opened++;
                            }
                        }
                        return opened;
                    }));
                }
                for (Future<Integer> result : results) {
                    assertThat(result.get(60, TimeUnit.SECONDS)).isEqualTo(perThread);
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void aWrongPinIsOneLineNamingTheFileAndTheToken() throws Exception {
        Path wrongPin = softHsm.pinFile("0000-wrong");
        assertThatThrownBy(() -> Pkcs11Kek.open(new KekLocator.Pkcs11(SoftHsm.MODULE, BETA, newLabel(), wrongPin)))
                .isInstanceOf(CustodyException.class)
                .hasMessage(
                        "the PIN in " + wrongPin + " is wrong for PKCS#11 token '" + BETA + "' (CKR_PIN_INCORRECT)");
    }

    @Test
    void aMissingTokenListsTheLabelsThereAre() {
        assertThatThrownBy(() -> Pkcs11Kek.open(locator("keyhaven-gamma", "kek")))
                .isInstanceOf(CustodyException.class)
                .hasMessage("no PKCS#11 token labelled 'keyhaven-gamma' in " + SoftHsm.MODULE + " (its tokens: '"
                        + ALPHA + "', '" + BETA + "', '" + CROWDED + "')");
    }

    @Test
    void aMissingKeySaysToRunKekInit() {
        String label = newLabel();
        assertThatThrownBy(() -> Pkcs11Kek.open(locator(ALPHA, label)))
                .isInstanceOf(CustodyException.class)
                .hasMessage("no key labelled '" + label + "' on PKCS#11 token '" + ALPHA
                        + "': run `kek init` with the same options to create it");
    }

    @Test
    void aMissingLibraryAndAFileThatIsNoLibraryAreNamed() throws Exception {
        Path missing = softHsm.directory().resolve("libnothing.so");
        assertThatThrownBy(() -> Pkcs11Kek.open(new KekLocator.Pkcs11(missing, ALPHA, "kek", pinFile)))
                .isInstanceOf(CustodyException.class)
                .hasMessage("the PKCS#11 module library " + missing + " does not exist");
        Path notALibrary = Files.writeString(softHsm.directory().resolve("libtext.so"), "not a library\n");
        assertThatThrownBy(() -> Pkcs11Kek.open(new KekLocator.Pkcs11(notALibrary, ALPHA, "kek", pinFile)))
                .isInstanceOf(CustodyException.class)
                .hasMessageStartingWith("cannot load the PKCS#11 module library " + notALibrary + ": ");
    }

    @Test
    void aMissingOrEmptyPinFileIsNamed() throws Exception {
        Path missing = softHsm.directory().resolve("no-pin.txt");
        assertThatThrownBy(() -> Pkcs11Kek.open(new KekLocator.Pkcs11(SoftHsm.MODULE, ALPHA, "kek", missing)))
                .isInstanceOf(CustodyException.class)
                .hasMessage("the PKCS#11 PIN file " + missing + " does not exist");
        Path empty = Files.writeString(softHsm.directory().resolve("empty-pin.txt"), "\n");
        assertThatThrownBy(() -> Pkcs11Kek.open(new KekLocator.Pkcs11(SoftHsm.MODULE, ALPHA, "kek", empty)))
                .isInstanceOf(CustodyException.class)
                .hasMessage("the PKCS#11 PIN file " + empty + " is empty");
    }

    @Test
    void aKeyThatCanLeaveTheTokenOrIsNotAes256IsRefused() throws Exception {
        String extractable = newLabel();
        String aes128 = newLabel();
        try (TokenKeyStore token = TokenKeyStore.login(ALPHA)) {
            // Imported through SunPKCS11's key store: SoftHSM2 leaves such a key readable (not sensitive).
            token.keyStore.setEntry(
                    extractable, new KeyStore.SecretKeyEntry(new SecretKeySpec(random(32), "AES")), null);
            token.keyStore.setEntry(aes128, new KeyStore.SecretKeyEntry(new SecretKeySpec(random(16), "AES")), null);
        }
        assertThatThrownBy(() -> Pkcs11Kek.open(locator(ALPHA, extractable)))
                .isInstanceOf(CustodyException.class)
                .hasMessage("the key labelled '" + extractable + "' on PKCS#11 token '" + ALPHA
                        + "' is not sensitive, so its value could leave the token: Keyhaven refuses it as a KEK");
        assertThatThrownBy(() -> Pkcs11Kek.init(locator(ALPHA, aes128)))
                .isInstanceOf(CustodyException.class)
                .hasMessage("the key labelled '" + aes128 + "' on PKCS#11 token '" + ALPHA
                        + "' is not an AES-256 key: Keyhaven refuses it as a KEK");
    }

    @Test
    void twoKeysWithTheKeksLabelAreRefusedAndInitMakesNoThirdAndOtherDuplicatesAreNamed() throws Exception {
        String label = newLabel();
        String other = newLabel();
        try (TokenKeyStore token = TokenKeyStore.login(CROWDED);
                Pkcs11Module.Session session = token.module.openSession(token.slot, true)) {
            session.generateAes256(label);
            session.generateAes256(label);
            session.generateAes256(other);
        }
        String refused = "2 keys are labelled '" + label + "' on PKCS#11 token '" + CROWDED
                + "': Keyhaven needs exactly one; relabel or delete the others";
        assertThatThrownBy(() -> Pkcs11Kek.open(locator(CROWDED, label)))
                .isInstanceOf(CustodyException.class)
                .hasMessage(refused);
        assertThatThrownBy(() -> Pkcs11Kek.init(locator(CROWDED, label)))
                .isInstanceOf(CustodyException.class)
                .hasMessage(refused);
        assertThatThrownBy(() -> Pkcs11Kek.open(locator(CROWDED, other)))
                .isInstanceOf(CustodyException.class)
                .hasMessage("SunPKCS11 cannot read the keys of PKCS#11 token '" + CROWDED + "': invalid KeyStore "
                        + "state: found multiple secret keys sharing same CKA_LABEL [" + label + "]");
    }

    @Test
    void aClosedKekRefusesToWork() {
        KekLocator.Pkcs11 locator = locator(ALPHA, newLabel());
        Pkcs11Kek kek = Pkcs11Kek.init(locator);
        byte[] wrapped = kek.wrap(SecretBytes.copyOf(random(32)), new byte[0]);
        kek.close();
        assertThatThrownBy(() -> kek.unwrap(wrapped, new byte[0]))
                .isInstanceOf(CustodyException.class)
                .hasMessage(locator + " is closed");
    }

    private static KekLocator.Pkcs11 locator(String token, String keyLabel) {
        return new KekLocator.Pkcs11(SoftHsm.MODULE, token, keyLabel, pinFile);
    }

    private static String newLabel() {
        return "kek-" + UUID.randomUUID();
    }

    private static byte[] aad(int i) {
        return ("data key " + i).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] random(int length) {
        byte[] bytes = new byte[length];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    /** SunPKCS11's key store on a token, logged in by the test itself and logged out when closed. */
    private record TokenKeyStore(Pkcs11Module module, long slot, AuthProvider provider, KeyStore keyStore)
            implements AutoCloseable {
        static TokenKeyStore login(String label) throws Exception {
            Pkcs11Module module = Pkcs11Module.load(SoftHsm.MODULE);
            long slot = module.tokens().stream()
                    .filter(t -> t.label().equals(label))
                    .findFirst()
                    .orElseThrow()
                    .slot();
            AuthProvider provider = (AuthProvider) Security.getProvider("SunPKCS11")
                    .configure("--name=test\nlibrary=" + Pkcs11Module.libraryPath(SoftHsm.MODULE) + "\nslot=" + slot);
            KeyStore keyStore = KeyStore.getInstance("PKCS11", provider);
            keyStore.load(null, SoftHsm.PIN.toCharArray());
            return new TokenKeyStore(module, slot, provider, keyStore);
        }

        @Override
        public void close() throws LoginException {
            provider.logout();
        }
    }
}
