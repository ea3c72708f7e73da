package dev.keyhaven.server.custody;

import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import dev.keyhaven.server.tx.Tx;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals secrets with AES-256-GCM under their owner's data key ({@link DataKeys}): {@code 0x02 ‖ nonce ‖ ciphertext ‖
 * tag}. The additional authenticated data binds each ciphertext to its purpose, organization and resource id, so a
 * sealed key copied into another row (or another organization) fails to open instead of signing for the wrong owner.
 * The JDK's GCM uses the AES-NI/CLMUL intrinsics (about 25 times BouncyCastle's).
 *
 * <p>Secrets sealed before envelope encryption ({@code 0x01 ‖ …}, directly under the KEK) still open while the KEK
 * that sealed them is current; the start-up upgrade ({@link LegacySeals}) moves them under data keys, and a rotation
 * refuses to start while any is left.
 */
public final class KeySealer {
    static final byte LEGACY_VERSION = FileKek.VERSION;
    static final byte VERSION = 2;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final DataKeys dataKeys;
    private final SecureRandom random;

    public KeySealer(DataKeys dataKeys, SecureRandom random) {
        this.dataKeys = dataKeys;
        this.random = random;
    }

    /**
     * Seals for one organization (or deployment scope): a handle that seals under its data key, created in {@code tx}
     * with the owner's first secret.
     */
    public OwnerSealer sealerFor(Tx tx, String organizationId) {
        return new OwnerSealer(this, organizationId, dataKeys.forSealing(tx, organizationId));
    }

    /** Seals {@code secret} for one resource of {@code organizationId}. The secret stays the caller's to close. */
    public SealedSecret seal(Tx tx, SealPurpose purpose, String organizationId, String resourceId, SecretBytes secret) {
        return sealerFor(tx, organizationId).seal(purpose, resourceId, secret);
    }

    SealedSecret seal(
            SecretKeySpec dataKey, SealPurpose purpose, String organizationId, String resourceId, SecretBytes secret) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        byte[] ciphertext = secret.apply(SecretKeyAccess.get(), plain -> {
            try {
                Cipher cipher = cipher(Cipher.ENCRYPT_MODE, dataKey, nonce, purpose, organizationId, resourceId);
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

    /** Opens a sealed secret of one resource inside {@code tx}; the caller closes the result. */
    public SecretBytes open(Tx tx, SealPurpose purpose, String organizationId, String resourceId, SealedSecret sealed) {
        return open(purpose, organizationId, resourceId, sealed, tx);
    }

    /**
     * Opens a sealed secret of one resource outside any transaction (a data key this process has not used yet is read
     * in a transaction of its own); the caller closes the result.
     */
    public SecretBytes open(SealPurpose purpose, String organizationId, String resourceId, SealedSecret sealed) {
        return open(purpose, organizationId, resourceId, sealed, null);
    }

    private SecretBytes open(
            SealPurpose purpose, String organizationId, String resourceId, SealedSecret sealed, Tx txOrNull) {
        byte[] bytes = sealed.bytes();
        if (bytes.length > 0 && bytes[0] == LEGACY_VERSION) {
            return openLegacy(purpose, organizationId, resourceId, bytes);
        }
        if (bytes.length < 1 + NONCE_BYTES + TAG_BITS / 8 || bytes[0] != VERSION) {
            throw new CustodyException("the sealed " + purpose.label() + " of " + resourceId + " is malformed");
        }
        SecretKeySpec cached = dataKeys.cached(organizationId);
        if (cached != null) {
            try {
                return decrypt(cached, purpose, organizationId, resourceId, bytes);
            } catch (AEADBadTagException stale) {
                // A cached key from a creation that rolled back, or a data key replaced by another server: read the
                // stored one and try once more.
                dataKeys.evict(organizationId);
            }
        }
        SecretKeySpec stored =
                txOrNull == null ? dataKeys.stored(organizationId) : dataKeys.stored(txOrNull, organizationId);
        try {
            return decrypt(stored, purpose, organizationId, resourceId, bytes);
        } catch (AEADBadTagException e) {
            throw new CustodyException("the sealed " + purpose.label() + " of " + resourceId
                    + " does not open with its organization's data key for this resource");
        }
    }

    /** A secret sealed directly under the KEK before envelope encryption (the same format as a file KEK's wrap). */
    SecretBytes openLegacy(SealPurpose purpose, String organizationId, String resourceId, byte[] bytes) {
        try {
            return dataKeys.kek().unwrap(bytes, aad(purpose, organizationId, resourceId));
        } catch (CustodyException e) {
            throw new CustodyException("the sealed " + purpose.label() + " of " + resourceId
                    + " (sealed before envelope encryption) does not open with the current KEK");
        }
    }

    private SecretBytes decrypt(
            SecretKeySpec dataKey, SealPurpose purpose, String organizationId, String resourceId, byte[] bytes)
            throws AEADBadTagException {
        try {
            Cipher cipher = cipher(
                    Cipher.DECRYPT_MODE,
                    dataKey,
                    Arrays.copyOfRange(bytes, 1, 1 + NONCE_BYTES),
                    purpose,
                    organizationId,
                    resourceId);
            return SecretBytes.adopt(cipher.doFinal(bytes, 1 + NONCE_BYTES, bytes.length - 1 - NONCE_BYTES));
        } catch (AEADBadTagException e) {
            throw e;
        } catch (GeneralSecurityException e) {
            throw new CustodyException("opening the sealed " + purpose.label() + " of " + resourceId + " failed", e);
        }
    }

    private static Cipher cipher(
            int mode, SecretKeySpec key, byte[] nonce, SealPurpose purpose, String organizationId, String resourceId)
            throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
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
