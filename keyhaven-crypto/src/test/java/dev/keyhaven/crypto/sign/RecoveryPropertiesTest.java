package dev.keyhaven.crypto.sign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Random;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The recovery id is computed from R while signing; these checks compare it, over many random keys and digests,
 * with what trial recovery (the slow way the signer avoids) finds.
 */
class RecoveryPropertiesTest {
    private static final int ROUNDS = 300;

    @ParameterizedTest
    @EnumSource(
            value = KeyCurve.class,
            names = {"SECP256K1", "P256"})
    void recoveryIdIsTheOnlyOneThatRecoversTheSignersKeyAndSIsLow(KeyCurve curve) {
        EcCurve ec = curve.ecCurve().orElseThrow();
        BigInteger halfOrder = ec.order().shiftRight(1);
        Random random = new Random(0x6b657968L + curve.ordinal()); // fixed seed: failures reproduce
        int[] seen = new int[2];
        for (int round = 0; round < ROUNDS; round++) {
            byte[] digest = new byte[32];
            random.nextBytes(digest);
            try (SecretBytes key = randomKey(ec, random)) {
                byte[] publicKey = curve.publicKey(key);
                Signature sig = PayloadSigner.signDigest(curve, key, digest);

                assertThat(new BigInteger(1, sig.s())).isLessThanOrEqualTo(halfOrder);
                assertThat(verifies(ec, publicKey, digest, sig)).isTrue();
                assertThat(sig.v()).isEqualTo(trialRecoveryId(curve, digest, sig, publicKey));
                seen[sig.v() & 1]++;
            }
        }
        // Both parities must occur, or a constant v would pass the checks above only by luck of the seed.
        assertThat(seen[0]).isPositive();
        assertThat(seen[1]).isPositive();
    }

    @ParameterizedTest
    @EnumSource(
            value = KeyCurve.class,
            names = {"SECP256K1", "P256"})
    void signingIsDeterministic(KeyCurve curve) {
        byte[] digest = new byte[32];
        Arrays.fill(digest, (byte) 7);
        try (SecretBytes key = curve.generatePrivateKey(new java.security.SecureRandom())) {
            assertThat(PayloadSigner.signDigest(curve, key, digest))
                    .isEqualTo(PayloadSigner.signDigest(curve, key, digest));
        }
    }

    private static SecretBytes randomKey(EcCurve ec, Random random) {
        byte[] key = new byte[32];
        BigInteger d;
        do {
            random.nextBytes(key);
            d = new BigInteger(1, key);
        } while (d.signum() == 0 || d.compareTo(ec.order()) >= 0);
        return SecretBytes.adopt(key);
    }

    private static boolean verifies(EcCurve ec, byte[] publicKey, byte[] digest, Signature sig) {
        ECDSASigner verifier = new ECDSASigner();
        verifier.init(false, new ECPublicKeyParameters(ec.decodePoint(publicKey), ec.domain()));
        return verifier.verifySignature(digest, new BigInteger(1, sig.r()), new BigInteger(1, sig.s()));
    }

    /** The single id among 0..3 whose recovery yields {@code publicKey}; fails if none or several do. */
    private static int trialRecoveryId(KeyCurve curve, byte[] digest, Signature sig, byte[] publicKey) {
        int found = -1;
        for (int id = 0; id < 4; id++) {
            byte[] recovered;
            try {
                recovered = PayloadSigner.recoverPublicKey(curve, digest, new Signature(sig.r(), sig.s(), id));
            } catch (IllegalArgumentException noPoint) {
                continue;
            }
            if (Arrays.equals(recovered, publicKey)) {
                assertThat(found)
                        .as("more than one recovery id recovers the key")
                        .isEqualTo(-1);
                found = id;
            }
        }
        assertThat(found).as("no recovery id recovers the key").isNotNegative();
        return found;
    }
}
