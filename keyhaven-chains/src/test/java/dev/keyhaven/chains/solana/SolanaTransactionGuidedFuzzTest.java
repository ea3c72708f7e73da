package dev.keyhaven.chains.solana;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.keyhaven.chains.FuzzSeeds;
import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.policy.Value;
import fr.acinq.bitcoin.Base58;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzzing of Solana wire transactions (Jazzer; docs/fuzzing.md): any bytes are refused with a
 * {@link TransactionFormatException} or parse into a transaction whose {@code solana.tx} (with an Anchor IDL for
 * every program, so instruction data meets the decoder) has its declared shape, and whose every signature slot takes a
 * signature without changing anything else: the signed transaction parses again to the same message.
 */
class SolanaTransactionGuidedFuzzTest {
    private static final AnchorIdl IDL = AnchorIdlTest.MODERN;

    static Stream<Arguments> seeds() {
        return FuzzSeeds.of("solana-transaction");
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "1m")
    @Timeout(10)
    void parsesOrRefuses(byte[] input) {
        SolanaTransaction transaction;
        try {
            transaction = SolanaTransaction.parse(input);
        } catch (TransactionFormatException refused) {
            assertThat(refused.getMessage()).isNotBlank();
            return;
        }
        Value value = transaction.policyValue(program -> Optional.of(IDL));
        assertThat(SolanaTransaction.POLICY_TYPE.mismatch(value)).isEmpty();
        byte[] signature = new byte[64];
        Arrays.fill(signature, (byte) 0x5a);
        for (String signer : transaction.requiredSigners()) {
            byte[] signed = transaction.withSignature(Base58.decode(signer), signature);
            assertThat(signed).hasSameSizeAs(input);
            assertThat(SolanaTransaction.parse(signed).message()).isEqualTo(transaction.message());
        }
    }
}
