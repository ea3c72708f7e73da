package dev.keyhaven.server.testing;

import dev.keyhaven.client.Requests.Attestation;
import dev.keyhaven.client.Requests.AuthenticatorParams;
import dev.keyhaven.client.Stamper;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A passkey in software: a P-256 (ES256) credential that registers the way a browser and authenticator do
 * ({@code clientDataJSON}, authenticator data, a CBOR attestation object in {@code none} or {@code packed}
 * self-attestation format) and stamps requests the way {@code @turnkey/webauthn-stamper} does (the challenge is the
 * ASCII of the lowercase hex SHA-256 of the body; the header is plain JSON). {@link Tamper} breaks one thing at a time
 * for the error paths.
 */
public final class SoftwareAuthenticator implements Stamper {
    /** The header name the TypeScript stamper sends (the specification spells it X-Stamp-WebAuthn). */
    public static final String HEADER = "X-Stamp-Webauthn";

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder B64URL = Base64.getUrlEncoder().withoutPadding();
    private static final HexFormat HEX = HexFormat.of();
    private static final byte UP = 0x01;
    private static final byte UV = 0x04;
    private static final byte AT = 0x40;
    private static final byte[] AAGUID = HEX.parseHex("6b6579686176656e2d736f6674776172");

    /** The attestation statement format of a registration. */
    public enum Format {
        NONE,
        PACKED_SELF
    }

    /** One thing to get wrong in a registration or an assertion. */
    public enum Tamper {
        NOTHING,
        /** The client data carries another challenge. */
        CHALLENGE,
        /** The client data has the other ceremony's type. */
        TYPE,
        /** The client data names an origin other than the authenticator's. */
        ORIGIN,
        /** The signature (the packed statement's, or the assertion's) has a flipped bit. */
        SIGNATURE,
        /** The user-present flag is clear. */
        USER_NOT_PRESENT,
        /** The credential id sent is not the credential's. */
        CREDENTIAL_ID
    }

    private final KeyPair keys;
    private final byte[] credentialId;
    private final String origin;
    private final String rpId;
    private final boolean counts;
    private final AtomicLong signCount = new AtomicLong();

    private SoftwareAuthenticator(KeyPair keys, byte[] credentialId, String origin, String rpId, boolean counts) {
        this.keys = keys;
        this.credentialId = credentialId;
        this.origin = origin;
        this.rpId = rpId;
        this.counts = counts;
    }

    /** A synced-passkey-like authenticator: its signature counter is always 0. */
    public static SoftwareAuthenticator create(String origin, String rpId) {
        return generate(origin, rpId, false);
    }

    /** A security-key-like authenticator whose counter increases with every assertion. */
    public static SoftwareAuthenticator counting(String origin, String rpId) {
        return generate(origin, rpId, true);
    }

    private static SoftwareAuthenticator generate(String origin, String rpId, boolean counts) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return new SoftwareAuthenticator(generator.generateKeyPair(), random(16), origin, rpId, counts);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The credential id, base64url without padding. */
    public String credentialId() {
        return B64URL.encodeToString(credentialId);
    }

    /** The public key as the API shows it: compressed SEC1, hex. */
    public String publicKeyHex() {
        ECPublicKey key = (ECPublicKey) keys.getPublic();
        byte[] out = new byte[33];
        out[0] = (byte) (key.getW().getAffineY().testBit(0) ? 0x03 : 0x02);
        System.arraycopy(fixed32(key.getW().getAffineX()), 0, out, 1, 32);
        return HEX.formatHex(out);
    }

    /** A registration for a fresh random challenge, sent base64url as {@code @turnkey/sdk-browser} does. */
    public AuthenticatorParams registration(String name, Format format) {
        return registration(name, format, B64URL.encodeToString(random(32)), Tamper.NOTHING);
    }

    public AuthenticatorParams registration(String name, Format format, Tamper tamper) {
        return registration(name, format, B64URL.encodeToString(random(32)), tamper);
    }

    /**
     * A registration for {@code challenge}, the text the client handed to WebAuthn as base64url (browsers and the
     * React Native module decode it to the challenge bytes; the client data carries those bytes base64url-encoded).
     */
    public AuthenticatorParams registration(String name, Format format, String challenge, Tamper tamper) {
        byte[] challengeBytes =
                tamper == Tamper.CHALLENGE ? random(32) : Base64.getUrlDecoder().decode(challenge);
        byte[] clientData =
                clientData(tamper == Tamper.TYPE ? "webauthn.get" : "webauthn.create", challengeBytes, tamper);
        byte[] authData = concat(
                sha256(rpId.getBytes(StandardCharsets.UTF_8)),
                new byte[] {(byte) (flags(tamper) | AT)},
                ByteBuffer.allocate(4).putInt(0).array(),
                AAGUID,
                ByteBuffer.allocate(2).putShort((short) credentialId.length).array(),
                credentialId,
                coseKey());
        Map<String, Object> statement = new LinkedHashMap<>();
        if (format == Format.PACKED_SELF) {
            statement.put("alg", -7);
            statement.put("sig", sign(concat(authData, sha256(clientData)), tamper == Tamper.SIGNATURE));
        } else if (tamper == Tamper.SIGNATURE) {
            throw new IllegalArgumentException("a none attestation has no signature to tamper with");
        }
        Map<String, Object> attestation = new LinkedHashMap<>();
        attestation.put("fmt", format == Format.PACKED_SELF ? "packed" : "none");
        attestation.put("attStmt", statement);
        attestation.put("authData", authData);
        String sentId = tamper == Tamper.CREDENTIAL_ID ? B64URL.encodeToString(random(16)) : credentialId();
        return new AuthenticatorParams(
                name,
                challenge,
                new Attestation(
                        sentId,
                        B64URL.encodeToString(clientData),
                        B64URL.encodeToString(Cbor.encode(attestation)),
                        List.of("AUTHENTICATOR_TRANSPORT_INTERNAL")));
    }

    @Override
    public Stamp stamp(byte[] body) {
        return stamp(body, Tamper.NOTHING);
    }

    /** A stamper that gets {@code tamper} wrong in every stamp. */
    public Stamper tampered(Tamper tamper) {
        return body -> stamp(body, tamper);
    }

    /** The {@code X-Stamp-Webauthn} header for {@code body}. */
    public Stamp stamp(byte[] body, Tamper tamper) {
        byte[] challenge = HEX.formatHex(sha256(tamper == Tamper.CHALLENGE ? random(8) : body))
                .getBytes(StandardCharsets.US_ASCII);
        byte[] clientData = clientData(tamper == Tamper.TYPE ? "webauthn.create" : "webauthn.get", challenge, tamper);
        long counter = counts ? signCount.incrementAndGet() : 0;
        byte[] authData = concat(
                sha256(rpId.getBytes(StandardCharsets.UTF_8)),
                new byte[] {flags(tamper)},
                ByteBuffer.allocate(4).putInt((int) counter).array());
        byte[] signature = sign(concat(authData, sha256(clientData)), tamper == Tamper.SIGNATURE);
        String id = tamper == Tamper.CREDENTIAL_ID ? B64URL.encodeToString(random(16)) : credentialId();
        String header = "{\"authenticatorData\":\"" + B64URL.encodeToString(authData) + "\",\"clientDataJson\":\""
                + B64URL.encodeToString(clientData) + "\",\"credentialId\":\"" + id + "\",\"signature\":\""
                + B64URL.encodeToString(signature) + "\"}";
        return new Stamp(HEADER, header);
    }

    private byte[] clientData(String type, byte[] challenge, Tamper tamper) {
        String from = tamper == Tamper.ORIGIN ? "https://elsewhere.example.net" : origin;
        return ("{\"type\":\"" + type + "\",\"challenge\":\"" + B64URL.encodeToString(challenge) + "\",\"origin\":\""
                        + from + "\",\"crossOrigin\":false}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static byte flags(Tamper tamper) {
        return tamper == Tamper.USER_NOT_PRESENT ? UV : (byte) (UP | UV);
    }

    /** The credential public key as a COSE_Key, hex: what a registration stores. */
    public String publicKeyCoseHex() {
        return HEX.formatHex(coseKey());
    }

    /** The credential public key as a COSE_Key: EC2, ES256, P-256, x, y. */
    private byte[] coseKey() {
        ECPublicKey key = (ECPublicKey) keys.getPublic();
        Map<Integer, Object> cose = new LinkedHashMap<>();
        cose.put(1, 2);
        cose.put(3, -7);
        cose.put(-1, 1);
        cose.put(-2, fixed32(key.getW().getAffineX()));
        cose.put(-3, fixed32(key.getW().getAffineY()));
        return Cbor.encode(cose);
    }

    private byte[] sign(byte[] data, boolean corrupt) {
        try {
            Signature signer = Signature.getInstance("SHA256withECDSA");
            signer.initSign(keys.getPrivate(), RANDOM);
            signer.update(data);
            byte[] signature = signer.sign();
            if (corrupt) {
                signature[signature.length - 1] ^= 0x01;
            }
            return signature;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] fixed32(BigInteger value) {
        byte[] raw = value.toByteArray();
        byte[] out = new byte[32];
        int copy = Math.min(raw.length, 32);
        System.arraycopy(raw, raw.length - copy, out, 32 - copy, copy);
        return out;
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static byte[] random(int length) {
        byte[] bytes = new byte[length];
        RANDOM.nextBytes(bytes);
        return bytes;
    }
}
