package dev.keyhaven.chains.solana;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.policy.Value;
import fr.acinq.bitcoin.Base58;
import java.util.Arrays;
import java.util.Optional;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Hostile wire bytes: truncations of every vector at every length, byte flips, insertions, random bytes and huge
 * counts. Parsing either refuses with a {@link TransactionFormatException} or yields a transaction whose policy value
 * (with an IDL for every program, so that random data meets the decoder too) and signing never fail otherwise.
 */
class SolanaFuzzTest {
    private static final AnchorIdl SWAP_IDL = AnchorIdlTest.MODERN;
    private static final Function<String, Optional<AnchorIdl>> EVERY_PROGRAM = program -> Optional.of(SWAP_IDL);

    /** Parses {@code wire}; anything but a refusal or a fully usable transaction fails the test. */
    private static boolean survives(byte[] wire) {
        SolanaTransaction transaction;
        try {
            transaction = SolanaTransaction.parse(wire);
        } catch (TransactionFormatException refused) {
            assertThat(refused.getMessage()).isNotBlank().hasSizeLessThan(300);
            return false;
        }
        Value value = transaction.policyValue(EVERY_PROGRAM);
        assertThat(SolanaTransaction.POLICY_TYPE.mismatch(value)).isEmpty();
        assertThat(transaction.message()).isNotEmpty();
        for (String signer : transaction.requiredSigners()) {
            byte[] signed = transaction.withSignature(Base58.decode(signer), new byte[64]);
            assertThat(signed).hasSameSizeAs(wire);
        }
        return true;
    }

    @ParameterizedTest
    @FieldSource("dev.keyhaven.chains.solana.SolanaVectors#TRANSACTIONS")
    void refusesEveryTruncation(String name) {
        byte[] wire = SolanaVectors.wire(name);

        assertThat(survives(wire)).isTrue();
        for (int length = 0; length < wire.length; length++) {
            byte[] truncated = Arrays.copyOf(wire, length);
            assertThatThrownBy(() -> SolanaTransaction.parse(truncated))
                    .as("length " + length)
                    .isInstanceOf(TransactionFormatException.class);
        }
    }

    @ParameterizedTest
    @FieldSource("dev.keyhaven.chains.solana.SolanaVectors#TRANSACTIONS")
    void survivesByteFlipsAndInsertions(String name) {
        byte[] wire = SolanaVectors.wire(name);
        Random random = new Random(name.hashCode());
        for (int round = 0; round < 3000; round++) {
            byte[] mutated = wire.clone();
            int flips = 1 + random.nextInt(3);
            for (int i = 0; i < flips; i++) {
                int at = random.nextInt(mutated.length);
                mutated[at] = random.nextBoolean()
                        ? (byte) (mutated[at] ^ 1 << random.nextInt(8))
                        : (byte) random.nextInt(256);
            }
            survives(mutated);
            int at = random.nextInt(wire.length);
            byte[] inserted = new byte[wire.length + 1];
            System.arraycopy(wire, 0, inserted, 0, at);
            inserted[at] = (byte) random.nextInt(256);
            System.arraycopy(wire, at, inserted, at + 1, wire.length - at);
            survives(inserted);
        }
    }

    @Test
    void survivesRandomBytes() {
        Random random = new Random(1232);
        for (int round = 0; round < 20_000; round++) {
            byte[] wire = new byte[random.nextInt(1300)];
            random.nextBytes(wire);
            if (wire.length > 0 && random.nextBoolean()) {
                // A plausible start (one signature slot), so that parsing gets past the first count more often.
                wire[0] = 1;
            }
            survives(wire);
        }
    }

    @Test
    void refusesHugeCountsWithoutAllocating() {
        byte[] maximum = {(byte) 0xff, (byte) 0xff, 0x03};
        byte[] wire = SolanaVectors.wire("v0_lookup");
        int message = 65;
        for (int offset : new int[] {0, message + 4, message + 4 + 1 + 5 * 32 + 32}) {
            byte[] huge = new byte[wire.length + 2];
            System.arraycopy(wire, 0, huge, 0, offset);
            System.arraycopy(maximum, 0, huge, offset, 3);
            System.arraycopy(wire, offset + 1, huge, offset + 3, wire.length - offset - 1);

            assertThatThrownBy(() -> SolanaTransaction.parse(huge))
                    .as("offset " + offset)
                    .isInstanceOf(TransactionFormatException.class)
                    .hasMessageContaining("count 65535");
        }
    }
}
