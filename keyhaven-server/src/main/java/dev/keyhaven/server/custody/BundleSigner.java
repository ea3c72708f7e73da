package dev.keyhaven.server.custody;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import dev.keyhaven.crypto.SigningKey;
import dev.keyhaven.server.tx.Transactor;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Keyhaven's own bundle-signing key, in Turnkey's bundles the {@code enclaveQuorumPublic}: a P-256 key that signs
 * export bundles and import targets, so a client that pins its public key (the official {@code @turnkey/crypto}'s
 * {@code dangerouslyOverrideSignerPublicKey}) knows a bundle came from this deployment. Generated once, on the first
 * start of a database, and stored sealed under the KEK; every server on the same database uses the same key.
 */
public final class BundleSigner implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BundleSigner.class);
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final HexFormat HEX = HexFormat.of();

    /**
     * The deployment's signing keys, all of the same kind: the bundle signer (export bundles, import targets), the
     * OTP signer (OTP target bundles and verification tokens: Turnkey's TLS-fetcher key) and the session signer
     * (session JWTs: Turnkey's notarizer key). Each is one row of {@code bundle_signer}, sealed under its own scope.
     */
    public enum Role {
        BUNDLE("signer", "bundle-signer"),
        OTP("otp-signer", "otp-signer"),
        SESSION("session-signer", "session-signer");

        private final String rowId;
        private final String sealScope;

        Role(String rowId, String sealScope) {
            this.rowId = rowId;
            this.sealScope = sealScope;
        }
    }

    private final Role role;
    private final SigningKey key;
    private final byte[] macKey;
    private final String publicKeyHex;

    private BundleSigner(Role role, SecretBytes scalar) {
        this.role = role;
        this.key = SigningKey.ecdsa(EcCurve.P256, scalar.apply(SecretKeyAccess.get(), SecretBytes::copyOf));
        this.macKey = scalar.apply(
                SecretKeyAccess.get(),
                s -> Digests.sha256(
                        concat(("keyhaven " + role.sealScope + " mac\n").getBytes(StandardCharsets.UTF_8), s)));
        this.publicKeyHex = HEX.formatHex(EcCurve.P256.decompress(key.publicKey()));
    }

    /** The database's bundle signer, generated and recorded there when it has none yet. */
    public static BundleSigner load(
            Transactor transactor, CustodyRepository repository, KeySealer sealer, SecureRandom random, Clock clock) {
        return load(Role.BUNDLE, transactor, repository, sealer, random, clock);
    }

    /** The database's signer of {@code role}, generated and recorded there when it has none yet. */
    public static BundleSigner load(
            Role role,
            Transactor transactor,
            CustodyRepository repository,
            KeySealer sealer,
            SecureRandom random,
            Clock clock) {
        Optional<CustodyRepository.StoredSigner> stored = transactor.read(tx -> repository.signer(tx, role.rowId));
        if (stored.isEmpty()) {
            try (SecretBytes scalar = KeyCurve.P256.generatePrivateKey(random)) {
                BundleSigner fresh = new BundleSigner(role, scalar);
                try {
                    transactor.write(tx -> {
                        var record = new CustodyRepository.StoredSigner(
                                fresh.publicKeyHex,
                                sealer.seal(tx, SealPurpose.BUNDLE_SIGNER, role.sealScope, role.sealScope, scalar));
                        repository.insertSigner(tx, role.rowId, record, clock.instant());
                        return null;
                    });
                    LOG.info("generated the {} {}", role.sealScope, fresh.publicKeyHex);
                    return fresh;
                } catch (Transactor.ConstraintViolation raced) {
                    // Another process recorded its signer first; use that one.
                    fresh.close();
                    stored = transactor.read(tx -> repository.signer(tx, role.rowId));
                }
            }
        }
        CustodyRepository.StoredSigner signer = stored.orElseThrow();
        BundleSigner opened;
        try (SecretBytes scalar =
                sealer.open(SealPurpose.BUNDLE_SIGNER, role.sealScope, role.sealScope, signer.sealedKey())) {
            opened = new BundleSigner(role, scalar);
        }
        if (!opened.publicKeyHex.equals(signer.publicKeyHex())) {
            opened.close();
            throw new CustodyException("the stored " + role.sealScope + " does not match its recorded public key");
        }
        return opened;
    }

    /**
     * The issuer of this key's JWTs (Nimbus, signed here): ES256 for OTP verification tokens, or
     * {@link JwtIssuer.Digest#TURNKEY_SESSION} for Turnkey's session JWTs.
     */
    public JwtIssuer jwtIssuer(JwtIssuer.Digest digest) {
        return new JwtIssuer(new P256JwsSigner(key, digest), digest, publicKeyHex);
    }

    /** HMAC-SHA256 of {@code data} under a key derived from this signer's private key (for stored code hashes). */
    public String mac(String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(macKey, "HmacSHA256"));
            return HEX.formatHex(mac.doFinal(data.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** The public key clients pin: 65-byte uncompressed SEC1, lower-case hex. */
    public String publicKeyHex() {
        return publicKeyHex;
    }

    /**
     * Turnkey's signed bundle: {@code {"version":"v1.0.0","data":hex(json(inner)),"dataSignature":DER hex,
     * "enclaveQuorumPublic":hex}}, the signature being ECDSA P-256 over SHA-256 of the inner JSON's bytes.
     */
    public String signedBundle(Map<String, String> inner) {
        byte[] data = JSON.writeValueAsString(inner).getBytes(StandardCharsets.UTF_8);
        Map<String, String> outer = new LinkedHashMap<>();
        outer.put("version", "v1.0.0");
        outer.put("data", HEX.formatHex(data));
        outer.put("dataSignature", HEX.formatHex(key.sign(data)));
        outer.put("enclaveQuorumPublic", publicKeyHex);
        return JSON.writeValueAsString(outer);
    }

    @Override
    public void close() {
        key.close();
        Arrays.fill(macKey, (byte) 0);
    }

    @Override
    public String toString() {
        return "BundleSigner[" + role + ", " + publicKeyHex + "]";
    }
}
