package dev.keyhaven.crypto.sign;

import dev.keyhaven.crypto.EcCurve;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;

/**
 * Which implementation makes ECDSA signatures on secp256k1, chosen once from {@value #VARIABLE}:
 *
 * <ul>
 *   <li>unset: the first of {@link #SEARCHED} that the dynamic linker finds and that passes the known answer, else
 *       BouncyCastle;
 *   <li>{@code none}: BouncyCastle;
 *   <li>anything else: that library, and nothing else. When it cannot be used, signing on secp256k1 is refused (and
 *       the server does not start): an operator who named a library is never silently given another.
 * </ul>
 *
 * <p>A library is used only after it signed a known answer exactly as BouncyCastle does (the same RFC 6979 nonce,
 * low S and recovery id), so the two are interchangeable: a signature never depends on which one made it.
 */
final class Secp256k1Signers {
    static final String VARIABLE = "KEYHAVEN_SECP256K1_LIBRARY";

    /** The names of libsecp256k1 across its releases (0.3 and later are {@code .so.2}; Debian 12 ships 0.2, .so.1). */
    static final List<String> SEARCHED = List.of("libsecp256k1.so.2", "libsecp256k1.so.1", "libsecp256k1.so");

    private final NativeSecp256k1 library;
    private final String description;
    private final String refusal;

    private Secp256k1Signers(NativeSecp256k1 library, String description, String refusal) {
        this.library = library;
        this.description = description;
        this.refusal = refusal;
    }

    /** The choice for {@code setting}, the value of {@value #VARIABLE} (null when unset). */
    static Secp256k1Signers choose(String setting) {
        if (setting == null || setting.isBlank()) {
            List<String> missed = new ArrayList<>();
            for (String name : SEARCHED) {
                try {
                    return usable(NativeSecp256k1.open(name));
                } catch (RuntimeException unusable) {
                    // Not found, incomplete, wrong, or native access denied to this JVM: BouncyCastle signs, and the
                    // start-up log says why. Never a failure of PayloadSigner's class, which signs every curve.
                    missed.add(unusable.getMessage());
                }
            }
            return new Secp256k1Signers(
                    null, "BouncyCastle (no usable libsecp256k1: " + String.join("; ", missed) + ")", null);
        }
        if (setting.strip().equals("none")) {
            return new Secp256k1Signers(null, "BouncyCastle (" + VARIABLE + "=none)", null);
        }
        try {
            return usable(NativeSecp256k1.open(setting.strip()));
        } catch (RuntimeException unusable) {
            String reason = VARIABLE + "=" + setting.strip() + " cannot sign: " + unusable.getMessage();
            return new Secp256k1Signers(null, reason, reason);
        }
    }

    /** The library, once it has signed the known answer as BouncyCastle does. */
    private static Secp256k1Signers usable(NativeSecp256k1 library) {
        byte[] secret = sha256("keyhaven secp256k1 known answer: key");
        byte[] digest = sha256("keyhaven secp256k1 known answer: digest");
        Signature expected = RecoverableEcdsaSigner.sign(EcCurve.SECP256K1, new BigInteger(1, secret), digest);
        if (!library.sign(secret, digest).equals(expected)) {
            throw new IllegalStateException(
                    library.library() + " signed the known answer differently from BouncyCastle");
        }
        return new Secp256k1Signers(library, library.toString(), null);
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Signs {@code digest32} with the scalar {@code d}, whose 32 big-endian bytes are {@code secret32}.
     *
     * @throws IllegalStateException when the library the operator named cannot be used
     */
    Signature sign(BigInteger d, byte[] secret32, byte[] digest32) {
        if (refusal != null) {
            throw new IllegalStateException(refusal);
        }
        return library != null
                ? library.sign(secret32, digest32)
                : RecoverableEcdsaSigner.sign(EcCurve.SECP256K1, d, digest32);
    }

    /** Whether a native library signs. */
    boolean isNative() {
        return library != null;
    }

    /**
     * What signs, for the server's start-up log.
     *
     * @throws IllegalStateException when the library the operator named cannot be used
     */
    String describe() {
        if (refusal != null) {
            throw new IllegalStateException(refusal);
        }
        return description;
    }
}
