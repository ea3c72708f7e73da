package dev.keyhaven.server.oauth2;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.custody.DataSealer;
import dev.keyhaven.server.custody.EnvelopeKey;
import dev.keyhaven.server.custody.HpkeTargets;
import dev.keyhaven.server.custody.SealPurpose;
import dev.keyhaven.server.custody.SealedSecret;
import dev.keyhaven.server.tx.Tx;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;

/**
 * OAuth 2.0 client secrets. Clients encrypt a secret to the credential-encryption key (Turnkey's TLS-fetcher
 * encryption key: {@code encryptOauth2ClientSecret} with its override key) in a QuorumOS envelope; custody's
 * {@link EnvelopeKey} opens it, this checks it is a secret, and custody's {@link DataSealer} seals it under the KEK for
 * its organization and credential. It is opened again only to build the HTTP Basic client authentication of one token
 * request: a client secret is a credential Keyhaven itself must send in the clear, not a key, and every array that
 * held it is wiped after use.
 */
public final class Oauth2ClientSecrets {
    /** Hex characters of an envelope accepted: a secret of up to about 4 kB. */
    static final int MAX_ENVELOPE_HEX = 2 * (12 + 65 + 4 + 4096 + 16);

    private static final HexFormat HEX = HexFormat.of();

    private final EnvelopeKey encryptionKey;
    private final DataSealer sealer;

    public Oauth2ClientSecrets(EnvelopeKey encryptionKey, DataSealer sealer) {
        this.encryptionKey = encryptionKey;
        this.sealer = sealer;
    }

    /** The credential-encryption public key clients encrypt secrets to: 65-byte uncompressed SEC1, hex. */
    public String encryptionPublicKey() {
        return encryptionKey.publicKeyHex();
    }

    /**
     * Opens {@code envelopeHex} (what {@code encryptOauth2ClientSecret} returns) and seals the secret under the
     * organization's data key for credential {@code credentialId} of {@code organizationId}.
     *
     * @throws ApiException 400 naming {@code field} when it is not hex, not an envelope, not addressed to this key,
     *         altered, or holds no secret (the message never quotes it)
     */
    public SealedSecret reseal(Tx tx, String organizationId, String credentialId, String envelopeHex, String field) {
        if (envelopeHex.isEmpty() || envelopeHex.length() > MAX_ENVELOPE_HEX) {
            throw ApiException.badField(
                    field,
                    "must be the hex envelope encryptOauth2ClientSecret returns (1 to " + MAX_ENVELOPE_HEX
                            + " hex characters)");
        }
        byte[] envelope;
        try {
            envelope = HEX.parseHex(envelopeHex);
        } catch (IllegalArgumentException e) {
            throw ApiException.badField(field, "must be hex (the envelope encryptOauth2ClientSecret returns)");
        }
        byte[] secret = openEnvelope(envelope, field);
        try {
            if (secret.length == 0 || !isUtf8(secret)) {
                throw ApiException.badField(field, "must encrypt a non-empty UTF-8 client secret");
            }
            return sealer.seal(tx, SealPurpose.OAUTH2_CLIENT_SECRET, organizationId, credentialId, secret);
        } finally {
            Arrays.fill(secret, (byte) 0);
        }
    }

    private byte[] openEnvelope(byte[] envelope, String field) {
        try {
            return encryptionKey.open(envelope);
        } catch (IllegalArgumentException e) {
            // The envelope's messages describe the layout problem, never the bytes.
            throw ApiException.badField(
                    field,
                    e.getMessage()
                            + " (it must be encrypted to the key at GET /public/v1/discovery/oauth2-encryption-key)");
        }
    }

    private static boolean isUtf8(byte[] bytes) {
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    /**
     * The {@code Authorization} header value of a token request: HTTP Basic with the form-encoded client id and
     * secret (RFC 6749 §2.3.1), the secret opened from {@code sealed} for this one request. The value is a
     * credential: it goes into the request and nowhere else.
     */
    public String basicAuthorization(String organizationId, String credentialId, SealedSecret sealed, String clientId) {
        byte[] secret = sealer.open(SealPurpose.OAUTH2_CLIENT_SECRET, organizationId, credentialId, sealed);
        try {
            CharBuffer chars = StandardCharsets.UTF_8.decode(ByteBuffer.wrap(secret));
            String pair = formEncode(clientId) + ":" + formEncode(chars.toString());
            return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
        } finally {
            Arrays.fill(secret, (byte) 0);
        }
    }

    private static String formEncode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /**
     * A provider's bearer token HPKE-encrypted to {@code targetPublicKeyHex} (P-256, compressed or uncompressed) as a
     * credential bundle (Base58Check of the compressed encapsulated key and the ciphertext): what Turnkey's X example
     * opens with {@code @turnkey/crypto}'s {@code decryptCredentialBundle} and the target's private key.
     *
     * @throws ApiException 400 naming {@code field} when the key is not a P-256 public key
     */
    public String encryptBearerToken(String targetPublicKeyHex, String bearerToken, String field) {
        byte[] target = p256PublicKey(targetPublicKeyHex, field);
        return HpkeTargets.credentialBundle(target, bearerToken.getBytes(StandardCharsets.UTF_8));
    }

    /** Validates a bearer-token target key before anything is exchanged. */
    public static void requireP256PublicKey(String targetPublicKeyHex, String field) {
        p256PublicKey(targetPublicKeyHex, field);
    }

    private static byte[] p256PublicKey(String hex, String field) {
        try {
            return EcCurve.P256.decompress(HEX.parseHex(hex));
        } catch (IllegalArgumentException e) {
            throw ApiException.badField(field, "must be a P-256 public key (hex, compressed or uncompressed)");
        }
    }

    @Override
    public String toString() {
        return "Oauth2ClientSecrets[" + encryptionKey.publicKeyHex() + "]";
    }
}
