package dev.keyhaven.bench.jmh;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import dev.keyhaven.crypto.SigningKey;
import dev.keyhaven.crypto.VerifyingKey;
import dev.keyhaven.crypto.sign.PayloadSigner;
import dev.keyhaven.crypto.sign.Signature;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The raw crypto of one {@code sign_raw_payload} request (secp256k1, {@code HASH_FUNCTION_KECCAK256}), with nothing
 * else: no HTTP, JSON, database or activity bookkeeping. Its 2-thread throughput on the 2-core machine is the
 * "raw-crypto limit" that the end-to-end rate is compared with in BENCHMARKS.md.
 *
 * <ol>
 * <li>Stamp verification: P-256 ECDSA over SHA-256 of a realistic request body, with the API key decoded once and
 * cached, as {@code ApiKeyStampVerifier} keeps it ({@link VerifyingKey#ecdsaSha256}; the DER signature is decoded
 * inside).</li>
 * <li>Opening the sealed account key: base64 of the stored blob, then AES-256-GCM with the length-prefixed AAD, a
 * new {@code Cipher} per call (the same JDK calls as the server's {@code KeySealer.open}, copied here because the
 * bench does not depend on the server module).</li>
 * <li>Keccak-256 of the payload ({@link Digests#keccak256}).</li>
 * <li>secp256k1 ECDSA with RFC 6979, low-s and the recovery id ({@link PayloadSigner#signDigest}): by
 * libsecp256k1 when installed, as in the server; {@code KEYHAVEN_SECP256K1_LIBRARY=none} measures BouncyCastle.</li>
 * </ol>
 *
 * <p>{@link #signRequest} does all four; the other methods measure each step alone to attribute the cost. Run one
 * thread and two (this machine has two cores), with nothing else running:
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp keyhaven-bench/target/keyhaven-bench.jar org.openjdk.jmh.Main RawCryptoBenchmark -t 1 -rf json
 * java --enable-native-access=ALL-UNNAMED -cp keyhaven-bench/target/keyhaven-bench.jar org.openjdk.jmh.Main RawCryptoBenchmark -t 2 -rf json
 * </pre>
 * The two threads share the cached API key and the curve generators, as the server's request threads do.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 10, time = 2)
@Fork(1)
public class RawCryptoBenchmark {
    private static final HexFormat HEX = HexFormat.of();
    private static final byte SEAL_VERSION = 1;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private VerifyingKey apiKey;
    private byte[] body;
    private byte[] stampSignature;
    private SecretKeySpec kek;
    private String organizationId;
    private String accountId;
    private String sealedAccountKey;
    private byte[] payload;
    private byte[] digest;
    private SecretBytes accountKey;

    @Setup
    public void setUp() throws GeneralSecurityException {
        SecureRandom random = new SecureRandom();
        organizationId = UUID.randomUUID().toString();
        accountId = UUID.randomUUID().toString();
        payload = new byte[32];
        random.nextBytes(payload);
        digest = Digests.keccak256(payload);
        // The body the end-to-end scenario sends (about 330 bytes), so SHA-256 hashes as much as the server does.
        body = ("{\"type\":\"ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2\",\"timestampMs\":\"" + System.currentTimeMillis()
                        + "\",\"organizationId\":\"" + organizationId + "\",\"parameters\":{\"signWith\":\"0x"
                        + HEX.formatHex(Arrays.copyOf(payload, 20)) + "\",\"payload\":\"" + HEX.formatHex(payload)
                        + "\",\"encoding\":\"PAYLOAD_ENCODING_HEXADECIMAL\",\"hashFunction\":\"HASH_FUNCTION_KECCAK256\"}}")
                .getBytes(StandardCharsets.UTF_8);
        try (SigningKey stamper = SigningKey.generateEcdsa(EcCurve.P256, random)) {
            apiKey = VerifyingKey.ecdsaSha256(EcCurve.P256, stamper.publicKey());
            stampSignature = stamper.sign(body);
        }
        byte[] kekBytes = new byte[32];
        random.nextBytes(kekBytes);
        kek = new SecretKeySpec(kekBytes, "AES");
        try (SecretBytes key = KeyCurve.SECP256K1.generatePrivateKey(random)) {
            sealedAccountKey = seal(random, key);
            // The benchmark measures raw crypto, so it reads key bytes like keyhaven-crypto does; it is no part of the
            // server, and the one module outside crypto and custody that takes SecretKeyAccess.
            accountKey = SecretBytes.copyOf(key.apply(SecretKeyAccess.get(), byte[]::clone));
        }
        if (!apiKey.verify(body, stampSignature) || !signRequest().equals(signDigest())) {
            throw new IllegalStateException("the benchmark's inputs do not verify or sign consistently");
        }
    }

    /** Everything above, in the order the server does it. */
    @Benchmark
    public Signature signRequest() {
        if (!apiKey.verify(body, stampSignature)) {
            throw new IllegalStateException("stamp does not verify");
        }
        byte[] hash = Digests.keccak256(payload);
        try (SecretBytes key = open()) {
            return PayloadSigner.signDigest(KeyCurve.SECP256K1, key, hash);
        }
    }

    @Benchmark
    public boolean stampVerify() {
        return apiKey.verify(body, stampSignature);
    }

    @Benchmark
    public int openSealedKey() {
        try (SecretBytes key = open()) {
            return key.length();
        }
    }

    @Benchmark
    public byte[] keccakPayload() {
        return Digests.keccak256(payload);
    }

    /** The signature alone, with an already open key. */
    @Benchmark
    public Signature signDigest() {
        return PayloadSigner.signDigest(KeyCurve.SECP256K1, accountKey, digest);
    }

    /** What {@code KeySealer.open} does for a wallet account key. */
    private SecretBytes open() {
        byte[] bytes = Base64.getDecoder().decode(sealedAccountKey);
        if (bytes.length < 1 + NONCE_BYTES + TAG_BITS / 8 || bytes[0] != SEAL_VERSION) {
            throw new IllegalStateException("malformed sealed key");
        }
        byte[] nonce = Arrays.copyOfRange(bytes, 1, 1 + NONCE_BYTES);
        try {
            Cipher cipher = cipher(Cipher.DECRYPT_MODE, nonce);
            return SecretBytes.adopt(cipher.doFinal(bytes, 1 + NONCE_BYTES, bytes.length - 1 - NONCE_BYTES));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private String seal(SecureRandom random, SecretBytes secret) throws GeneralSecurityException {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        Cipher cipher = cipher(Cipher.ENCRYPT_MODE, nonce);
        byte[] ciphertext = secret.apply(SecretKeyAccess.get(), plain -> {
            try {
                return cipher.doFinal(plain);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        });
        return Base64.getEncoder()
                .encodeToString(ByteBuffer.allocate(1 + NONCE_BYTES + ciphertext.length)
                        .put(SEAL_VERSION)
                        .put(nonce)
                        .put(ciphertext)
                        .array());
    }

    private Cipher cipher(int mode, byte[] nonce) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(mode, kek, new GCMParameterSpec(TAG_BITS, nonce));
        cipher.updateAAD(aad());
        return cipher;
    }

    /** {@code KeySealer.aad}: length-prefixed tag, purpose, organization and resource. */
    private byte[] aad() {
        byte[][] fields = {
            "keyhaven-seal-v1".getBytes(StandardCharsets.UTF_8),
            "wallet-account-key".getBytes(StandardCharsets.UTF_8),
            organizationId.getBytes(StandardCharsets.UTF_8),
            accountId.getBytes(StandardCharsets.UTF_8)
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
