package dev.keyhaven.server.webauthn;

import com.webauthn4j.data.attestation.authenticator.COSEKey;
import com.webauthn4j.data.attestation.authenticator.Curve;
import com.webauthn4j.data.attestation.authenticator.EC2COSEKey;
import com.webauthn4j.data.attestation.authenticator.EdDSACOSEKey;
import com.webauthn4j.data.attestation.statement.COSEAlgorithmIdentifier;
import dev.keyhaven.crypto.EcCurve;
import java.util.HexFormat;
import java.util.Set;
import tools.jackson.databind.ObjectMapper;

/**
 * The two forms a passkey's public key is kept in: the COSE key (CBOR, as webauthn4j reads and writes it), which
 * assertions are verified with, and the hex form the API shows in {@code credential.publicKey} — compressed SEC1 for
 * P-256 keys, raw for Ed25519 keys, the same encodings API keys use. Only those two key types are accepted: Turnkey's
 * SDKs ask authenticators for ES256 first, and a key type the API cannot show is refused at registration rather than
 * stored in a form no client understands.
 */
final class PasskeyKeys {
    private static final HexFormat HEX = HexFormat.of();
    private static final int P256_COORDINATE = 32;
    private static final Set<COSEAlgorithmIdentifier> P256_ALGORITHMS =
            Set.of(COSEAlgorithmIdentifier.ES256, COSEAlgorithmIdentifier.ESP256);
    private static final Set<COSEAlgorithmIdentifier> ED25519_ALGORITHMS =
            Set.of(COSEAlgorithmIdentifier.EdDSA, COSEAlgorithmIdentifier.Ed25519);

    private final ObjectMapper cbor;

    /** {@code cbor} is webauthn4j's CBOR mapper, which knows the COSE key types. */
    PasskeyKeys(ObjectMapper cbor) {
        this.cbor = cbor;
    }

    /**
     * The API form of a credential public key.
     *
     * @throws IllegalArgumentException when the key is not an ES256 P-256 or EdDSA Ed25519 public key
     */
    String apiPublicKey(COSEKey key) {
        return switch (key) {
            case EC2COSEKey ec
            when ec.getCurve() == Curve.SECP256R1 && P256_ALGORITHMS.contains(ec.getAlgorithm()) ->
                HEX.formatHex(EcCurve.P256.compress(uncompressed(ec)));
            case EdDSACOSEKey ed
            when ed.getCurve() == Curve.ED25519
                    && ED25519_ALGORITHMS.contains(ed.getAlgorithm())
                    && ed.getX() != null
                    && ed.getX().length == 32 -> HEX.formatHex(ed.getX());
            default ->
                throw new IllegalArgumentException("unsupported passkey public key: only ES256 (P-256) and "
                        + "EdDSA (Ed25519) keys are accepted");
        };
    }

    /** The COSE key as hex CBOR, for storage. */
    String coseHex(COSEKey key) {
        return HEX.formatHex(cbor.writeValueAsBytes(key));
    }

    /**
     * Reads a stored COSE key.
     *
     * @throws IllegalStateException when the stored value is not a COSE key (the store was tampered with)
     */
    COSEKey fromCoseHex(String hex) {
        try {
            COSEKey key = cbor.readValue(HEX.parseHex(hex), COSEKey.class);
            if (key == null) {
                throw new IllegalStateException("stored passkey public key is empty");
            }
            return key;
        } catch (RuntimeException e) {
            throw new IllegalStateException("stored passkey public key is not a COSE key", e);
        }
    }

    private static byte[] uncompressed(EC2COSEKey key) {
        byte[] x = key.getX();
        byte[] y = key.getY();
        if (x == null || y == null || x.length != P256_COORDINATE || y.length != P256_COORDINATE) {
            throw new IllegalArgumentException("P-256 passkey public key coordinates must be 32 bytes each");
        }
        byte[] point = new byte[1 + 2 * P256_COORDINATE];
        point[0] = 0x04;
        System.arraycopy(x, 0, point, 1, P256_COORDINATE);
        System.arraycopy(y, 0, point, 1 + P256_COORDINATE, P256_COORDINATE);
        return point;
    }
}
