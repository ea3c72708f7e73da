package dev.keyhaven.chains.ethereum;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.keyhaven.chains.FuzzSeeds;
import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.crypto.eth.EthereumTransaction;
import dev.keyhaven.crypto.sign.Signature;
import dev.keyhaven.policy.Value;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzzing of unsigned Ethereum transactions (Jazzer; docs/fuzzing.md): any bytes are refused with a
 * {@link TransactionFormatException} or parse into a transaction whose {@code eth.tx} (read with an ERC-20 ABI, so
 * calldata meets the decoder) has its declared shape and which takes a signature.
 */
class EthereumTransactionGuidedFuzzTest {
    private static final String FROM = "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed";
    private static final ContractAbi ERC20 = EthereumVectors.abi("erc20.abi.json");
    private static final Signature SIGNATURE = new Signature(new byte[32], new byte[32], 1);

    static Stream<Arguments> seeds() {
        return FuzzSeeds.of("ethereum-transaction");
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "1m")
    @Timeout(10)
    void parsesOrRefuses(byte[] input) {
        EthereumTransaction transaction;
        try {
            transaction = EthereumTransactionView.parseUnsigned(input);
        } catch (TransactionFormatException refused) {
            assertThat(refused.getMessage()).isNotBlank();
            return;
        }
        Value value = EthereumTransactionView.policyValue(transaction, FROM, Optional.of(ERC20));
        assertThat(EthereumTransactionView.POLICY_TYPE.mismatch(value)).isEmpty();
        assertThat(transaction.signingHash()).hasSize(32);
        assertThat(transaction.withSignature(SIGNATURE)).isNotEmpty();
    }
}
