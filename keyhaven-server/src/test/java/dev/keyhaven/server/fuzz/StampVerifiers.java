package dev.keyhaven.server.fuzz;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.Stamper;
import dev.keyhaven.server.api.JsonMappers;
import dev.keyhaven.server.auth.ApiKeyStampVerifier;
import dev.keyhaven.server.auth.AttestedStampVerifier;
import dev.keyhaven.server.auth.RequestAuthenticator;
import dev.keyhaven.server.custody.BundleSigner;
import dev.keyhaven.server.custody.HpkeTargets;
import dev.keyhaven.server.custody.InMemoryKeys;
import dev.keyhaven.server.custody.KeySealer;
import dev.keyhaven.server.custody.MasterKey;
import dev.keyhaven.server.oidc.OidcVerifier;
import dev.keyhaven.server.oidc.SessionNonce;
import dev.keyhaven.server.oidc.TrustedIssuer;
import dev.keyhaven.server.otp.OtpKeys;
import dev.keyhaven.server.otp.OtpService;
import dev.keyhaven.server.testing.AttestedStamps;
import dev.keyhaven.server.testing.Bundles;
import dev.keyhaven.server.testing.SoftwareAuthenticator;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.Tx;
import dev.keyhaven.server.tx.TxWork;
import dev.keyhaven.server.webauthn.AllowedOrigins;
import dev.keyhaven.server.webauthn.PasskeyRepository;
import dev.keyhaven.server.webauthn.PasskeyStampVerifier;
import dev.keyhaven.server.webauthn.StoredPasskey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link RequestAuthenticator} with the server's three real verifiers and no database: one registered passkey, an
 * OIDC issuer inside the process and an OTP signer held in memory. Its keys are made afresh in every JVM, so the
 * stamps they sign ({@link #validStamps}) are made at run time; the committed seeds show the header formats.
 */
final class StampVerifiers {
    static final String ORIGIN = "https://wallet.keyhaven.test";
    private static final String ISSUER = "https://issuer.keyhaven.test";
    private static final Instant NOW = Instant.parse("2026-03-10T15:00:00Z");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SoftwareAuthenticator passkey = SoftwareAuthenticator.create(ORIGIN, "wallet.keyhaven.test");
    private final ECKey issuerKey;
    private final OtpKeys otpKeys;
    private final RequestAuthenticator authenticator;

    StampVerifiers() {
        Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
        Transactor memory = new InMemoryTransactor();
        StoredPasskey stored = new StoredPasskey(
                passkey.credentialId(), passkey.publicKeyHex(), passkey.publicKeyCoseHex(), "wallet.keyhaven.test");
        PasskeyRepository passkeys = new PasskeyRepository() {
            @Override
            public Optional<StoredPasskey> findByCredentialId(Tx tx, String credentialId) {
                return stored.credentialId().equals(credentialId) ? Optional.of(stored) : Optional.empty();
            }

            @Override
            public boolean advanceSignCount(Tx tx, String credentialId, long signCount) {
                return true;
            }
        };
        try {
            issuerKey = new ECKeyGenerator(Curve.P_256).keyID("fuzz").generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        KeySealer sealer = InMemoryKeys.sealer(MasterKey.generate(temporaryKeyFile(), RANDOM));
        otpKeys = new OtpKeys(
                new HpkeTargets(sealer, RANDOM),
                BundleSigner.load(BundleSigner.Role.OTP, memory, new InMemoryKeys.Signers(), sealer, RANDOM, clock));
        var json = JsonMappers.strict();
        ApiKeyStampVerifier apiKeys = new ApiKeyStampVerifier(json, 64);
        OidcVerifier oidc =
                new OidcVerifier(List.of(TrustedIssuer.inProcess(ISSUER, new JWKSet(issuerKey.toPublicJWK()))), clock);
        OtpService otps = new OtpService(null, otpKeys, null, null, null, null, null, null, memory, RANDOM);
        authenticator = new RequestAuthenticator(
                apiKeys,
                new PasskeyStampVerifier(memory, passkeys, AllowedOrigins.of(List.of(ORIGIN)), json),
                new AttestedStampVerifier(apiKeys, oidc, otps, json, clock));
    }

    RequestAuthenticator authenticator() {
        return authenticator;
    }

    /** A stamp of every kind this authenticator accepts, over {@code body}, each as a fuzz input. */
    List<byte[]> validStamps(byte[] body) {
        Bundles.TargetKey attestedKey = Bundles.TargetKey.generate();
        String token = oidcToken(SessionNonce.of(attestedKey.compressed()));
        Map<String, String> claims = new LinkedHashMap<>();
        claims.put("id", "otp-fuzz");
        claims.put("verification_type", "OTP_TYPE_EMAIL");
        claims.put("contact", "fuzz@keyhaven.test");
        claims.put("organization_id", "00000000-0000-0000-0000-000000000000");
        claims.put("public_key", attestedKey.compressed());
        claims.put("exp", Long.toString(NOW.plus(Duration.ofMinutes(10)).toEpochMilli()));
        return List.of(
                StampInput.of(
                        ApiKeyStamper.generate(ApiKeyStamper.Curve.P256, RANDOM).stamp(body), body),
                StampInput.of(
                        ApiKeyStamper.generate(ApiKeyStamper.Curve.SECP256K1, RANDOM)
                                .stamp(body),
                        body),
                StampInput.of(
                        ApiKeyStamper.generate(ApiKeyStamper.Curve.ED25519, RANDOM)
                                .stamp(body),
                        body),
                StampInput.of(passkey.stamp(body), body),
                StampInput.of(
                        AttestedStamps.attested(attestedKey, token, AttestedStamps.OIDC)
                                .stamp(body),
                        body),
                StampInput.of(
                        AttestedStamps.attested(
                                        attestedKey,
                                        otpKeys.verificationToken(claims),
                                        AttestedStamps.VERIFICATION_TOKEN)
                                .stamp(body),
                        body));
    }

    private String oidcToken(String nonce) {
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(ISSUER)
                .audience("fuzz-client")
                .subject("user-1")
                .issueTime(Date.from(NOW))
                .expirationTime(Date.from(NOW.plus(Duration.ofHours(1))))
                .claim("nonce", nonce)
                .build();
        SignedJWT jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("fuzz").build(), claims);
        try {
            jwt.sign(new ECDSASigner(issuerKey));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return jwt.serialize();
    }

    private static Path temporaryKeyFile() {
        try {
            Path directory = Files.createTempDirectory("keyhaven-fuzz");
            directory.toFile().deleteOnExit();
            Path file = directory.resolve("master.key");
            file.toFile().deleteOnExit();
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The stamp input format of {@link StampGuidedFuzzTest}: three header lines, then the body. */
    static final class StampInput {
        private StampInput() {}

        static byte[] of(Stamper.Stamp stamp, byte[] body) {
            String name = stamp.headerName().toLowerCase(Locale.ROOT);
            String[] lines = {"", "", ""};
            lines[name.equals("x-stamp") ? 0 : name.equals("x-stamp-webauthn") ? 1 : 2] = stamp.headerValue();
            byte[] head = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
            byte[] input = new byte[head.length + body.length];
            System.arraycopy(head, 0, input, 0, head.length);
            System.arraycopy(body, 0, input, head.length, body.length);
            return input;
        }
    }

    /** Runs every unit of work at once, with no transaction: the verifiers' repositories here are in memory. */
    private static final class InMemoryTransactor implements Transactor {
        private static final Tx NONE = new Tx() {};

        @Override
        public <T> T write(TxWork<T> work) {
            return work.run(NONE);
        }

        @Override
        public <T> T read(TxWork<T> work) {
            return work.run(NONE);
        }
    }
}
