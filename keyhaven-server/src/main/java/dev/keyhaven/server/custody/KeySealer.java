package dev.keyhaven.server.custody;

import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;

/**
 * AES-256-GCM under the KEK. The additional authenticated data binds each ciphertext to its purpose, organization
 * and resource id, so a sealed key copied into another row (or another organization) fails to open instead of
 * signing for the wrong owner. The JDK's GCM uses the AES-NI/CLMUL intrinsics (about 25 times BouncyCastle's).
 */
public final class KeySealer {
    private static final byte VERSION = 1;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final MasterKey masterKey;
    private final SecureRandom random;

    public KeySealer(MasterKey masterKey, SecureRandom random) {
        this.masterKey = masterKey;
        this.random = random;
    }

    /** Seals {@code secret} for one resource. The secret stays the caller's to close. */
    public SealedSecret seal(SealPurpose purpose, String organizationId, String resourceId, SecretBytes secret) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        byte[] ciphertext = secret.apply(SecretKeyAccess.get(), plain -> {
            try {
                Cipher cipher = cipher(Cipher.ENCRYPT_MODE, nonce, purpose, organizationId, resourceId);
                return cipher.doFinal(plain);
            } catch (GeneralSecurityException e) {
                throw new CustodyException("sealing a " + purpose.label() + " failed", e);
            }
        });
        return SealedSecret.of(ByteBuffer.allocate(1 + NONCE_BYTES + ciphertext.length)
                .put(VERSION)
                .put(nonce)
                .put(ciphertext)
                .array());
    }

    /** Opens a sealed secret of one resource; the caller closes the result. */
    public SecretBytes open(SealPurpose purpose, String organizationId, String resourceId, SealedSecret sealed) {
        byte[] bytes = sealed.bytes();
        if (bytes.length < 1 + NONCE_BYTES + TAG_BITS / 8 || bytes[0] != VERSION) {
            throw new CustodyException("the sealed " + purpose.label() + " of " + resourceId + " is malformed");
        }
        byte[] nonce = java.util.Arrays.copyOfRange(bytes, 1, 1 + NONCE_BYTES);
        try {
            Cipher cipher = cipher(Cipher.DECRYPT_MODE, nonce, purpose, organizationId, resourceId);
            return SecretBytes.adopt(cipher.doFinal(bytes, 1 + NONCE_BYTES, bytes.length - 1 - NONCE_BYTES));
        } catch (AEADBadTagException e) {
            throw new CustodyException("the sealed " + purpose.label() + " of " + resourceId
                    + " does not open with this master key for this organization and resource");
        } catch (GeneralSecurityException e) {
            throw new CustodyException("opening the sealed " + purpose.label() + " of " + resourceId + " failed", e);
        }
    }

    private Cipher cipher(int mode, byte[] nonce, SealPurpose purpose, String organizationId, String resourceId)
            throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(mode, masterKey.aesKey(), new GCMParameterSpec(TAG_BITS, nonce));
        cipher.updateAAD(aad(purpose, organizationId, resourceId));
        return cipher;
    }

    /** Length-prefixed fields, so no two different (purpose, organization, resource) triples share an AAD. */
    static byte[] aad(SealPurpose purpose, String organizationId, String resourceId) {
        byte[][] fields = {
            "keyhaven-seal-v1".getBytes(StandardCharsets.UTF_8),
            purpose.label().getBytes(StandardCharsets.UTF_8),
            organizationId.getBytes(StandardCharsets.UTF_8),
            resourceId.getBytes(StandardCharsets.UTF_8)
        };
        int length = 0;
        for (byte[] field : fields) {
            length += 4 + field.length;
        }
        ByteBuffer out = ByteBuffer.allocate(length);
        for (byte[] field : fields) {
            out.putInt(field.length).put(field);
        }
        return out.array();
    }
}
