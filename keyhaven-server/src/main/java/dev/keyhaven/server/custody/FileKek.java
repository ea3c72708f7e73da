package dev.keyhaven.server.custody;

import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;

/**
 * A KEK kept in a file ({@link MasterKey}): AES-256-GCM in the JDK, {@code 0x01 ‖ nonce ‖ ciphertext ‖ tag}. That is
 * the format every secret had before envelope encryption, so the KEK check value recorded then still opens.
 */
public final class FileKek implements Kek {
    static final byte VERSION = 1;
    static final int NONCE_BYTES = 12;
    static final int TAG_BITS = 128;

    private final MasterKey key;
    private final SecureRandom random;

    public FileKek(MasterKey key, SecureRandom random) {
        this.key = key;
        this.random = random;
    }

    @Override
    public KekLocator locator() {
        return new KekLocator.File(key.file());
    }

    @Override
    public byte[] wrap(SecretBytes dataKey, byte[] aad) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        byte[] ciphertext = dataKey.apply(SecretKeyAccess.get(), plain -> {
            try {
                Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
                cipher.init(Cipher.ENCRYPT_MODE, key.aesKey(), new GCMParameterSpec(TAG_BITS, nonce));
                cipher.updateAAD(aad);
                return cipher.doFinal(plain);
            } catch (GeneralSecurityException e) {
                throw new CustodyException("wrapping with the KEK in " + key.file() + " failed", e);
            }
        });
        return ByteBuffer.allocate(1 + NONCE_BYTES + ciphertext.length)
                .put(VERSION)
                .put(nonce)
                .put(ciphertext)
                .array();
    }

    @Override
    public SecretBytes unwrap(byte[] wrapped, byte[] aad) {
        if (wrapped.length < 1 + NONCE_BYTES + TAG_BITS / 8 || wrapped[0] != VERSION) {
            throw new CustodyException("a value wrapped by the KEK is malformed");
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(
                    Cipher.DECRYPT_MODE,
                    key.aesKey(),
                    new GCMParameterSpec(TAG_BITS, Arrays.copyOfRange(wrapped, 1, 1 + NONCE_BYTES)));
            cipher.updateAAD(aad);
            return SecretBytes.adopt(cipher.doFinal(wrapped, 1 + NONCE_BYTES, wrapped.length - 1 - NONCE_BYTES));
        } catch (AEADBadTagException e) {
            throw new CustodyException("a value does not open with the KEK in " + key.file());
        } catch (GeneralSecurityException e) {
            throw new CustodyException("unwrapping with the KEK in " + key.file() + " failed", e);
        }
    }

    @Override
    public void close() {
        // Nothing to release: the key is an object of this JVM.
    }

    @Override
    public String toString() {
        return "FileKek[" + key.file() + ", redacted]";
    }
}
