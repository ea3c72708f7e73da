package dev.keyhaven.server.custody;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SigningKey;
import dev.keyhaven.server.tx.Transactor;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
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
    private static final String SEAL_SCOPE = "bundle-signer";
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final HexFormat HEX = HexFormat.of();

    private final SigningKey key;
    private final String publicKeyHex;

    private BundleSigner(SigningKey key) {
        this.key = key;
        this.publicKeyHex = HEX.formatHex(EcCurve.P256.decompress(key.publicKey()));
    }

    /** The database's bundle signer, generated and recorded there when it has none yet. */
    public static BundleSigner load(Transactor transactor, CustodyRepository repository, KeySealer sealer,
            SecureRandom random, Clock clock) {
        Optional<CustodyRepository.StoredSigner> stored = transactor.read(repository::bundleSigner);
        if (stored.isEmpty()) {
            try (SecretBytes scalar = KeyCurve.P256.generatePrivateKey(random)) {
                BundleSigner fresh = new BundleSigner(SigningKey.ecdsa(EcCurve.P256, scalar.apply(SecretBytes::copyOf)));
                var record = new CustodyRepository.StoredSigner(fresh.publicKeyHex,
                        sealer.seal(SealPurpose.BUNDLE_SIGNER, SEAL_SCOPE, SEAL_SCOPE, scalar));
                try {
                    transactor.write(tx -> {
                        repository.insertBundleSigner(tx, record, clock.instant());
                        return null;
                    });
                    LOG.info("generated the bundle signer {}", fresh.publicKeyHex);
                    return fresh;
                } catch (Transactor.ConstraintViolation raced) {
                    // Another process recorded its signer first; use that one.
                    fresh.close();
                    stored = transactor.read(repository::bundleSigner);
                }
            }
        }
        CustodyRepository.StoredSigner signer = stored.orElseThrow();
        BundleSigner opened = new BundleSigner(SigningKey.ecdsa(EcCurve.P256,
                sealer.open(SealPurpose.BUNDLE_SIGNER, SEAL_SCOPE, SEAL_SCOPE, signer.sealedKey())));
        if (!opened.publicKeyHex.equals(signer.publicKeyHex())) {
            opened.close();
            throw new CustodyException("the stored bundle signer does not match its recorded public key");
        }
        return opened;
    }

    /** The public key clients pin: 65-byte uncompressed SEC1, lower-case hex. */
    public String publicKeyHex() {
        return publicKeyHex;
    }

    /**
     * Turnkey's signed bundle: {@code {"version":"v1.0.0","data":hex(json(inner)),"dataSignature":DER hex,
     * "enclaveQuorumPublic":hex}}, the signature being ECDSA P-256 over SHA-256 of the inner JSON's bytes.
     */
    String signedBundle(Map<String, String> inner) {
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
    }

    @Override
    public String toString() {
        return "BundleSigner[" + publicKeyHex + "]";
    }
}
