package dev.keyhaven.server.interop;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;

/**
 * An OIDC issuer for the interop suite, so that Turnkey's clients can send real ID tokens (create_oauth_providers,
 * oauth_login, oauth): a fresh P-256 key per run, its public half written as the JWKS of the issuers file the server
 * is started with ({@code --oidc-issuers}), the whole key (a JWK) written for the node tests, which sign ES256 tokens
 * with node's own crypto. Nothing of this key exists outside the run's temporary directory.
 */
final class TestOidcIssuer {
    static final String ISSUER = "https://oidc.interop.keyhaven.test";
    static final String AUDIENCE = "keyhaven-interop";
    private static final String KEY_ID = "interop-1";

    private TestOidcIssuer() {}

    /** Writes the issuer's files into a new directory under {@code work} and returns that directory. */
    static Path write(Path work) throws IOException {
        KeyPair pair;
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            pair = generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot generate a P-256 key", e);
        }
        ECPublicKey publicKey = (ECPublicKey) pair.getPublic();
        ECPrivateKey privateKey = (ECPrivateKey) pair.getPrivate();
        String publicJwk = "{\"kty\": \"EC\", \"crv\": \"P-256\", \"kid\": \"" + KEY_ID + "\", \"alg\": \"ES256\","
                + " \"use\": \"sig\", \"x\": \"" + coordinate(publicKey.getW().getAffineX()) + "\", \"y\": \""
                + coordinate(publicKey.getW().getAffineY()) + "\"}";
        String privateJwk =
                publicJwk.substring(0, publicJwk.length() - 1) + ", \"d\": \"" + coordinate(privateKey.getS()) + "\"}";
        Path directory = Files.createDirectories(work.resolve("oidc-issuer"));
        Files.writeString(directory.resolve("jwks.json"), "{\"keys\": [" + publicJwk + "]}");
        Files.writeString(
                issuersFile(directory),
                "[{\"issuer\": \"" + ISSUER + "\", \"jwksFile\": \"jwks.json\", \"audiences\": [\"" + AUDIENCE
                        + "\"]}]");
        Files.writeString(
                signingFile(directory),
                "{\"issuer\": \"" + ISSUER + "\", \"audience\": \"" + AUDIENCE + "\", \"jwk\": " + privateJwk + "}");
        return directory;
    }

    /** The file for {@code serve --oidc-issuers}. */
    static Path issuersFile(Path directory) {
        return directory.resolve("issuers.json");
    }

    /** The file the node tests sign tokens with ({@code KEYHAVEN_TEST_OIDC_ISSUER}): issuer, audience, key. */
    static Path signingFile(Path directory) {
        return directory.resolve("signing-key.json");
    }

    /** A P-256 coordinate or scalar as a JWK writes it: 32 bytes, big-endian, base64url without padding. */
    private static String coordinate(BigInteger value) {
        byte[] bytes = value.toByteArray();
        byte[] fixed = new byte[32];
        int length = Math.min(bytes.length, 32);
        System.arraycopy(bytes, bytes.length - length, fixed, 32 - length, length);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(fixed);
    }
}
