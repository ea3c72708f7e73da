package dev.keyhaven.chains.solana;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.policy.Value;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hostile IDLs and instruction data: mutated IDL documents are refused with a {@link TransactionFormatException} or
 * accepted; random data under any accepted IDL decodes or is bound as unreadable, never anything else.
 */
class AnchorIdlFuzzTest {
    private static final List<MessageAccount> ACCOUNTS = List.of(
            new MessageAccount("A", true, true), new MessageAccount("B", false, true),
            new MessageAccount("C", false, false), new MessageAccount("D", false, false),
            new MessageAccount("E", false, false), new MessageAccount("F", false, false));

    private static void decodeRandomData(AnchorIdl idl, Random random, int rounds) {
        for (int round = 0; round < rounds; round++) {
            byte[] data = new byte[random.nextInt(200)];
            random.nextBytes(data);
            if (!idl.instructions().isEmpty() && random.nextInt(4) > 0) {
                byte[] discriminator = idl.instructions()
                        .get(random.nextInt(idl.instructions().size()))
                        .discriminator();
                System.arraycopy(discriminator, 0, data, 0, Math.min(discriminator.length, data.length));
            }
            Value parsed = AnchorInstructionReader.read(idl, "Program", ACCOUNTS, data);
            assertThat(SolanaTransaction.POLICY_TYPE.mismatch(parsed)).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"swap-idl-anchor-0.30.json", "swap-idl-anchor-0.29.json"})
    void survivesMutatedIdls(String resource) {
        String json = SolanaVectors.resource(resource);
        Random random = new Random(resource.hashCode());
        String alphabet = "{}[]\",:0123456789-abcdefghijklmnopqrstuvwxyz _\\";
        int accepted = 0;
        for (int round = 0; round < 3000; round++) {
            StringBuilder mutated = new StringBuilder(json);
            for (int edits = 1 + random.nextInt(3); edits > 0; edits--) {
                int at = random.nextInt(mutated.length());
                switch (random.nextInt(3)) {
                    case 0 -> mutated.deleteCharAt(at);
                    case 1 -> mutated.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
                    default -> mutated.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
                }
            }
            try {
                AnchorIdl idl = AnchorIdl.parse(mutated.toString());
                accepted++;
                decodeRandomData(idl, random, 5);
            } catch (TransactionFormatException refused) {
                assertThat(refused.getMessage()).isNotBlank().hasSizeLessThan(300);
            }
        }
        assertThat(accepted).isPositive();
    }

    @Test
    void survivesRandomDataUnderTheSwapIdls() {
        Random random = new Random(42);

        decodeRandomData(AnchorIdlTest.MODERN, random, 20_000);
        decodeRandomData(AnchorIdlTest.LEGACY, random, 20_000);
    }
}
