package dev.keyhaven.server.custody;

import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.security.AuthProvider;
import java.security.GeneralSecurityException;
import java.security.InvalidParameterException;
import java.security.Key;
import java.security.KeyStore;
import java.security.ProviderException;
import java.security.SecureRandom;
import java.security.Security;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.auth.login.LoginException;

/**
 * A KEK that is an AES-256 key on a PKCS#11 token (an HSM, or SoftHSM2), used through the JDK's SunPKCS11 provider:
 * every wrap and unwrap is {@code CKM_AES_GCM} computed inside the token, and the key is sensitive and not extractable,
 * so its value never reaches this process. {@link #open} refuses a key that could leave the token.
 *
 * <p>A wrapped data key is {@code version (1 byte, 0x01) ‖ IV (12 random bytes) ‖ AES-256-GCM ciphertext with its
 * 16-byte tag}, the AAD being the caller's: 61 bytes for a 32-byte data key. The version byte lets a later format
 * (another mechanism) be told apart; an unknown version does not open.
 *
 * <p>Thread safety: wrap and unwrap may run on many threads at once. Each call takes a {@link Cipher} of its own (a
 * Cipher is not thread-safe); SunPKCS11 hands each operation a token session from its pool.
 *
 * <p>The JVM must export the JDK's PKCS#11 wrapper to Keyhaven ({@link Pkcs11Module} says why):
 * {@code --add-exports jdk.crypto.cryptoki/sun.security.pkcs11.wrapper=ALL-UNNAMED}, which {@code java -jar} takes from
 * the jar manifest's {@code Add-Exports}.
 */
public final class Pkcs11Kek implements Kek {
    /** The first byte of every wrapped data key. */
    static final byte VERSION = 1;

    static final int IV_LENGTH = 12;
    static final int TAG_BITS = 128;
    private static final int KEY_BYTES = 32;

    /** Logins per token (library path and slot): the login is the whole process's, so only the last close logs out. */
    private static final Map<String, Integer> LOGINS = new HashMap<>();

    private static final AtomicInteger PROVIDERS = new AtomicInteger();

    private final KekLocator.Pkcs11 locator;
    private final AuthProvider provider;
    private final SecretKey key;
    private final String loginKey;
    private final boolean created;
    private final SecureRandom random = new SecureRandom();
    private volatile boolean closed;

    private Pkcs11Kek(
            KekLocator.Pkcs11 locator, AuthProvider provider, SecretKey key, String loginKey, boolean created) {
        this.locator = locator;
        this.provider = provider;
        this.key = key;
        this.loginKey = loginKey;
        this.created = created;
    }

    /**
     * Opens the KEK {@code locator} names: its token logged in with the PIN from the PIN file, its key found and
     * checked (AES-256, sensitive, not extractable, the only one with its label).
     *
     * @throws CustodyException naming the cause in one line (library, token, PIN, key), with no secret in it
     */
    public static Pkcs11Kek open(KekLocator.Pkcs11 locator) {
        return connect(locator, false);
    }

    /**
     * Opens the KEK {@code locator} names, first creating its key inside the token when no key has its label: AES-256,
     * a private token object, sensitive, not extractable, for encryption and decryption only. Running it again opens
     * the key it created ({@link #created} says which happened); it never makes a second key with the same label.
     */
    public static Pkcs11Kek init(KekLocator.Pkcs11 locator) {
        return connect(locator, true);
    }

    /** Whether {@link #init} created the key just now (false when the key was already there, and after open). */
    public boolean created() {
        return created;
    }

    @Override
    public KekLocator locator() {
        return locator;
    }

    @Override
    public byte[] wrap(SecretBytes dataKey, byte[] aad) {
        ensureOpen();
        byte[] iv = new byte[IV_LENGTH];
        random.nextBytes(iv);
        byte[] sealed;
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding", provider);
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
            cipher.updateAAD(aad);
            sealed = dataKey.apply(SecretKeyAccess.get(), bytes -> {
                try {
                    return cipher.doFinal(bytes);
                } catch (GeneralSecurityException e) {
                    throw new CustodyException(failed("wrap a data key with", e), e);
                }
            });
        } catch (GeneralSecurityException | ProviderException e) {
            throw new CustodyException(failed("wrap a data key with", e), e);
        }
        return ByteBuffer.allocate(1 + IV_LENGTH + sealed.length)
                .put(VERSION)
                .put(iv)
                .put(sealed)
                .array();
    }

    @Override
    public SecretBytes unwrap(byte[] wrapped, byte[] aad) {
        ensureOpen();
        if (wrapped.length < 1 + IV_LENGTH + TAG_BITS / 8 || wrapped[0] != VERSION) {
            throw new CustodyException("a wrapped data key is not in the format of " + locator + " (version " + VERSION
                    + ", " + (1 + IV_LENGTH + TAG_BITS / 8) + " bytes or more)");
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding", provider);
            cipher.init(
                    Cipher.DECRYPT_MODE,
                    key,
                    new GCMParameterSpec(TAG_BITS, Arrays.copyOfRange(wrapped, 1, 1 + IV_LENGTH)));
            cipher.updateAAD(aad);
            return SecretBytes.adopt(cipher.doFinal(wrapped, 1 + IV_LENGTH, wrapped.length - 1 - IV_LENGTH));
        } catch (AEADBadTagException e) {
            throw new CustodyException(
                    "a wrapped data key does not open with " + locator + " (another KEK wrapped it, or it was moved or "
                            + "altered)",
                    e);
        } catch (GeneralSecurityException | ProviderException e) {
            throw new CustodyException(failed("unwrap a data key with", e), e);
        }
    }

    /** Logs the token out when no other open KEK in this process uses it; the KEK cannot be used afterwards. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        release(provider, loginKey);
    }

    /** Counts one login of the token off, and logs the token out when it was the last one. */
    private static void release(AuthProvider provider, String loginKey) {
        boolean last;
        synchronized (LOGINS) {
            last = LOGINS.merge(loginKey, -1, Integer::sum) <= 0;
            if (last) {
                LOGINS.remove(loginKey);
            }
        }
        if (last) {
            try {
                provider.logout();
            } catch (LoginException e) {
                // The token may already be gone (removed, or the module finalized): nothing is left to release.
            }
        }
    }

    @Override
    public String toString() {
        return "Pkcs11Kek[" + locator + "]";
    }

    private void ensureOpen() {
        if (closed) {
            throw new CustodyException(locator + " is closed");
        }
    }

    private String failed(String what, Exception e) {
        return "cannot " + what + " " + locator + ": " + Pkcs11Module.describe(e);
    }

    private static Pkcs11Kek connect(KekLocator.Pkcs11 locator, boolean create) {
        Pkcs11Module module = Pkcs11Module.load(locator.library());
        Pkcs11Module.Token token = token(module, locator);
        AuthProvider provider = configure(locator, token);
        logIn(provider, locator);
        String loginKey = Pkcs11Module.libraryPath(locator.library()) + "#" + token.slot();
        synchronized (LOGINS) {
            LOGINS.merge(loginKey, 1, Integer::sum);
        }
        Pkcs11Kek kek = null;
        try {
            boolean created = false;
            try (Pkcs11Module.Session session = module.openSession(token.slot(), create)) {
                long[] keys = session.secretKeys(locator.keyLabel());
                if (keys.length == 0 && create) {
                    session.generateAes256(locator.keyLabel());
                    created = true;
                    // a concurrent init may have created one too: two keys with one label are refused below
                    keys = session.secretKeys(locator.keyLabel());
                }
                if (keys.length == 0) {
                    throw new CustodyException("no key labelled '" + locator.keyLabel() + "' on PKCS#11 token '"
                            + locator.tokenLabel() + "': run `kek init` with the same options to create it");
                }
                if (keys.length > 1) {
                    throw new CustodyException(keys.length + " keys are labelled '" + locator.keyLabel()
                            + "' on PKCS#11 token '" + locator.tokenLabel()
                            + "': Keyhaven needs exactly one; relabel or delete the others");
                }
                check(session.attributesOf(keys[0]), locator);
            }
            // SunPKCS11 hands out a token key only through its key store. Loading it (the token is logged in by now)
            // maps every label on the token, and it refuses a token where two secret keys share any label.
            KeyStore keyStore = KeyStore.getInstance("PKCS11", provider);
            keyStore.load(null, null);
            SecretKey key = secretKey(keyStore, locator);
            kek = new Pkcs11Kek(locator, provider, key, loginKey, created);
            return kek;
        } catch (IOException | GeneralSecurityException e) {
            throw new CustodyException(
                    "SunPKCS11 cannot read the keys of PKCS#11 token '" + locator.tokenLabel() + "': "
                            + Pkcs11Module.describe(rootCause(e)),
                    e);
        } finally {
            if (kek == null) {
                release(provider, loginKey);
            }
        }
    }

    /** The token labelled as the locator says, or a failure listing the labels there are (sorted). */
    private static Pkcs11Module.Token token(Pkcs11Module module, KekLocator.Pkcs11 locator) {
        List<Pkcs11Module.Token> tokens = module.tokens();
        return tokens.stream()
                .filter(t -> t.label().equals(locator.tokenLabel()))
                .findFirst()
                .orElseThrow(() -> new CustodyException("no PKCS#11 token labelled '" + locator.tokenLabel() + "' in "
                        + locator.library()
                        + (tokens.isEmpty()
                                ? " (it has no initialized token)"
                                : " (its tokens: "
                                        + tokens.stream()
                                                .map(t -> "'" + t.label() + "'")
                                                .sorted()
                                                .collect(Collectors.joining(", "))
                                        + ")")));
    }

    /**
     * A SunPKCS11 instance of our own for the token's slot. It is never added to {@link Security}'s list: Keyhaven
     * asks it by reference, so no other code picks it for an algorithm by accident.
     */
    private static AuthProvider configure(KekLocator.Pkcs11 locator, Pkcs11Module.Token token) {
        String config = "--name = keyhaven-kek-" + PROVIDERS.incrementAndGet() + "\n"
                + "library = " + Pkcs11Module.libraryPath(locator.library()) + "\n"
                + "slot = " + token.slot() + "\n";
        try {
            java.security.Provider base = Security.getProvider("SunPKCS11");
            if (base == null) {
                throw new CustodyException("this Java has no SunPKCS11 provider: use a full JDK or JRE");
            }
            return (AuthProvider) base.configure(config);
        } catch (ProviderException | InvalidParameterException e) {
            throw new CustodyException(
                    "SunPKCS11 cannot use PKCS#11 token '" + locator.tokenLabel() + "' in " + locator.library() + ": "
                            + Pkcs11Module.describe(e.getCause() != null ? e.getCause() : e),
                    e);
        }
    }

    /**
     * Logs the token in with the PIN from the PIN file. The login is the process's: a token another open KEK has
     * logged in already is not logged in again, so its PIN is not checked a second time.
     */
    private static void logIn(AuthProvider provider, KekLocator.Pkcs11 locator) {
        char[] pin = readPin(locator.pinFile());
        try {
            provider.login(null, callbacks -> {
                for (Callback callback : callbacks) {
                    if (callback instanceof PasswordCallback password) {
                        password.setPassword(pin); // it keeps a copy, which SunPKCS11 clears after C_Login
                    } else {
                        throw new UnsupportedCallbackException(callback);
                    }
                }
            });
        } catch (LoginException | ProviderException e) {
            long code = Pkcs11Module.errorCode(e).orElse(-1);
            String token = "PKCS#11 token '" + locator.tokenLabel() + "'";
            if (code == Pkcs11Module.CKR_PIN_INCORRECT) {
                throw new CustodyException(
                        "the PIN in " + locator.pinFile() + " is wrong for " + token + " (CKR_PIN_INCORRECT)", e);
            }
            if (code == Pkcs11Module.CKR_PIN_LOCKED) {
                throw new CustodyException(
                        "the user PIN of " + token + " is locked (CKR_PIN_LOCKED): the token's security officer "
                                + "must unlock it",
                        e);
            }
            if (code == Pkcs11Module.CKR_PIN_EXPIRED) {
                throw new CustodyException(
                        "the user PIN of " + token + " has expired (CKR_PIN_EXPIRED): set a new one with the "
                                + "token's tools",
                        e);
            }
            throw new CustodyException("cannot log in to " + token + ": " + Pkcs11Module.describe(rootCause(e)), e);
        } finally {
            Arrays.fill(pin, '\0');
        }
    }

    /** The PIN: the file's content, UTF-8, without one trailing newline (CRLF or LF). */
    static char[] readPin(java.nio.file.Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new CustodyException("the PKCS#11 PIN file " + file + " does not exist", e);
        } catch (AccessDeniedException e) {
            throw new CustodyException("the PKCS#11 PIN file " + file + " is not readable (permission denied)", e);
        } catch (IOException e) {
            throw new CustodyException(
                    "cannot read the PKCS#11 PIN file " + file + ": "
                            + e.getClass().getSimpleName(),
                    e);
        }
        int length = bytes.length;
        if (length > 0 && bytes[length - 1] == '\n') {
            length--;
            if (length > 0 && bytes[length - 1] == '\r') {
                length--;
            }
        }
        CharBuffer chars = null;
        try {
            chars = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, 0, length));
            char[] pin = new char[chars.remaining()];
            chars.get(pin);
            if (pin.length == 0) {
                throw new CustodyException("the PKCS#11 PIN file " + file + " is empty");
            }
            return pin;
        } catch (CharacterCodingException e) {
            throw new CustodyException("the PKCS#11 PIN file " + file + " is not UTF-8 text", e);
        } finally {
            Arrays.fill(bytes, (byte) 0);
            if (chars != null) {
                Arrays.fill(chars.array(), '\0');
            }
        }
    }

    /** Refuses a key that is not AES-256, or whose value could be read or wrapped out of the token. */
    private static void check(Pkcs11Module.KeyAttributes attributes, KekLocator.Pkcs11 locator) {
        String key = "the key labelled '" + locator.keyLabel() + "' on PKCS#11 token '" + locator.tokenLabel() + "'";
        if (attributes.keyType() != Pkcs11Module.CKK_AES || attributes.valueLength() != KEY_BYTES) {
            throw new CustodyException(key + " is not an AES-256 key: Keyhaven refuses it as a KEK");
        }
        if (!attributes.sensitive() || attributes.extractable()) {
            throw new CustodyException(key + " is " + (attributes.extractable() ? "extractable" : "not sensitive")
                    + ", so its value could leave the token: Keyhaven refuses it as a KEK");
        }
    }

    /** SunPKCS11's handle on the key; its value stays in the token (SunPKCS11 returns no encoding for it). */
    private static SecretKey secretKey(KeyStore keyStore, KekLocator.Pkcs11 locator) throws GeneralSecurityException {
        Key key = keyStore.getKey(locator.keyLabel(), null);
        if (!(key instanceof SecretKey secret) || !"AES".equals(key.getAlgorithm())) {
            throw new CustodyException("SunPKCS11 does not see the key labelled '" + locator.keyLabel()
                    + "' on PKCS#11 token '" + locator.tokenLabel() + "' as an AES secret key");
        }
        if (secret.getEncoded() != null) {
            throw new CustodyException("the key labelled '" + locator.keyLabel() + "' on PKCS#11 token '"
                    + locator.tokenLabel() + "' can be read out of the token: Keyhaven refuses it as a KEK");
        }
        return secret;
    }

    private static Throwable rootCause(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }
}
