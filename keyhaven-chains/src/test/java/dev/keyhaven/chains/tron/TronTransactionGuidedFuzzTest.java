package dev.keyhaven.chains.tron;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.keyhaven.chains.FuzzSeeds;
import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.crypto.Digests;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzzing of Tron's {@code Transaction.raw} (Jazzer; docs/fuzzing.md): any bytes are refused with a
 * {@link TransactionFormatException} or parse into a transaction whose {@code tron.tx} has its declared shape, whose
 * digest is SHA-256 of exactly those bytes, and which takes a signature.
 */
class TronTransactionGuidedFuzzTest {
    static Stream<Arguments> seeds() {
        return FuzzSeeds.of("tron-transaction");
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "1m")
    @Timeout(10)
    void parsesOrRefuses(byte[] input) {
        TronTransaction transaction;
        try {
            transaction = TronTransaction.parse(input);
        } catch (TransactionFormatException refused) {
            assertThat(refused.getMessage()).isNotBlank();
            return;
        }
        assertThat(TronTransaction.POLICY_TYPE.mismatch(transaction.policyValue()))
                .isEmpty();
        assertThat(transaction.signingDigest()).isEqualTo(Digests.sha256(input));
        assertThat(transaction.signed(new byte[32], new byte[32], 1)).isNotEmpty();
    }
}
