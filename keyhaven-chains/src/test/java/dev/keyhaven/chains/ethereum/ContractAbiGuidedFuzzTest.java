package dev.keyhaven.chains.ethereum;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.keyhaven.chains.FuzzInputs;
import dev.keyhaven.chains.FuzzSeeds;
import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.policy.Value;
import dev.keyhaven.policy.ValueType;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzzing of contract ABIs and the calls read with them (Jazzer; docs/fuzzing.md). An input is an
 * ABI document, a NUL byte and calldata ({@link FuzzInputs}): the document is refused with a
 * {@link TransactionFormatException} or accepted, and under an accepted ABI any calldata is decoded (its selector the
 * data's first four bytes, its arguments values policies can hold) or bound as unreadable, never anything else.
 */
class ContractAbiGuidedFuzzTest {
    private static final ValueType ARGUMENTS = ValueType.mapOf(ValueType.ANY);

    static Stream<Arguments> seeds() {
        return FuzzSeeds.of("contract-abi");
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "1m")
    @Timeout(10)
    void readsOrRefuses(byte[] input) {
        FuzzInputs inputs = FuzzInputs.split(input);
        ContractAbi abi;
        try {
            abi = ContractAbi.parse(inputs.json());
        } catch (TransactionFormatException refused) {
            assertThat(refused.getMessage()).isNotBlank();
            return;
        }
        if (inputs.data().length < 4) {
            return;
        }
        switch (abi.read(inputs.data())) {
            case ContractCall.Decoded decoded -> {
                assertThat(decoded.selector())
                        .isEqualTo("0x" + HexFormat.of().formatHex(Arrays.copyOf(inputs.data(), 4)));
                assertThat(decoded.functionName()).isNotBlank();
                assertThat(ARGUMENTS.mismatch(Value.struct(decoded.arguments())))
                        .isEmpty();
            }
            case ContractCall.Unreadable unreadable ->
                assertThat(unreadable.reason()).isNotBlank();
        }
    }
}
