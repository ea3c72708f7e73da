package dev.keyhaven.chains.solana;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.keyhaven.chains.FuzzInputs;
import dev.keyhaven.chains.FuzzSeeds;
import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.policy.ValueType;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzzing of Anchor IDLs and the instruction data read with them (Jazzer; docs/fuzzing.md). An input
 * is an IDL document, a NUL byte and instruction data ({@link FuzzInputs}): the document is refused with a
 * {@link TransactionFormatException} or accepted, and under an accepted IDL any data is decoded into
 * {@code parsed_instruction_data} of its declared shape or bound as unreadable, never anything else.
 */
class AnchorIdlGuidedFuzzTest {
    private static final List<MessageAccount> ACCOUNTS = List.of(
            new MessageAccount("A", true, true), new MessageAccount("B", false, true),
            new MessageAccount("C", false, false), new MessageAccount("D", false, false),
            new MessageAccount("E", false, false), new MessageAccount("F", false, false));
    /** {@code solana.tx.instructions[].parsed_instruction_data}, as the transaction's shape declares it. */
    private static final ValueType PARSED = ((ValueType.StructOf)
                    ((ValueType.ListOf) ((ValueType.StructOf) SolanaTransaction.POLICY_TYPE)
                                    .fields()
                                    .get("instructions"))
                            .element())
            .fields()
            .get("parsed_instruction_data");

    static Stream<Arguments> seeds() {
        return FuzzSeeds.of("anchor-idl");
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "1m")
    @Timeout(10)
    void readsOrRefuses(byte[] input) {
        FuzzInputs inputs = FuzzInputs.split(input);
        AnchorIdl idl;
        try {
            idl = AnchorIdl.parse(inputs.json());
        } catch (TransactionFormatException refused) {
            assertThat(refused.getMessage()).isNotBlank();
            return;
        }
        assertThat(PARSED.mismatch(AnchorInstructionReader.read(idl, "Program", ACCOUNTS, inputs.data())))
                .isEmpty();
    }
}
