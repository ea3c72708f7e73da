package dev.keyhaven.chains.bitcoin;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.keyhaven.chains.FuzzSeeds;
import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.crypto.address.BitcoinNetwork;
import dev.keyhaven.policy.Value;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzzing of PSBTs (Jazzer; docs/fuzzing.md): any bytes are refused with a
 * {@link TransactionFormatException} or parse into a PSBT whose {@code bitcoin.tx} has its declared shape; the inputs
 * the test key spends are found or refused the same way, and once signed as custody signs them the PSBT parses
 * again to the same {@code bitcoin.tx}.
 */
class PsbtGuidedFuzzTest {
    static Stream<Arguments> seeds() {
        return FuzzSeeds.of("psbt");
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "1m")
    @Timeout(10)
    void parsesOrRefuses(byte[] input) {
        PartiallySignedTransaction psbt;
        try {
            psbt = PartiallySignedTransaction.parse(input);
        } catch (TransactionFormatException refused) {
            assertThat(refused.getMessage()).isNotBlank();
            return;
        }
        Value value = psbt.policyValue(Optional.of(BitcoinNetwork.MAINNET));
        assertThat(PartiallySignedTransaction.POLICY_TYPE.mismatch(value)).isEmpty();
        assertThat(PartiallySignedTransaction.POLICY_TYPE.mismatch(psbt.policyValue(Optional.empty())))
                .isEmpty();
        List<InputToSign> toSign;
        try {
            toSign = psbt.inputsSpendableBy(Fixtures.KEY);
        } catch (TransactionFormatException refused) {
            assertThat(refused.getMessage()).isNotBlank();
            return;
        }
        byte[] signed = psbt.withSignatures(Fixtures.signAsK(toSign));
        assertThat(PartiallySignedTransaction.parse(signed).policyValue(Optional.of(BitcoinNetwork.MAINNET)))
                .isEqualTo(value);
    }
}
