package dev.keyhaven.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every {@code consensus}, {@code condition} and {@code time} expression in Turnkey's documentation (tkhq/docs, as
 * quoted in its JSON examples; unquoted placeholders such as {@code <AMOUNT>} replaced by values) parses, and prints
 * back to a canonical form that parses to the same tree. The keywords it reads are Turnkey's (so no predicate
 * variable is mistaken for one).
 */
class TurnkeyDocsExpressionsTest {
    private static final Set<String> TURNKEY_KEYWORDS = Set.of(
            "approvers",
            "credentials",
            "activity",
            "wallet",
            "wallets",
            "wallet_account",
            "private_key",
            "secret",
            "eth",
            "solana",
            "tron",
            "bitcoin",
            "tempo",
            "time");

    static List<String> expressions() throws IOException {
        try (InputStream in = TurnkeyDocsExpressionsTest.class.getResourceAsStream("/turnkey-docs-expressions.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    @ParameterizedTest
    @MethodSource("expressions")
    void parses(String source) {
        PolicyExpression expression = PolicyExpression.parse(source);
        assertThat(TURNKEY_KEYWORDS).containsAll(expression.referencedKeywords());
        String canonical = Printer.print(expression.root());
        assertThat(Printer.print(PolicyExpression.parse(canonical).root())).isEqualTo(canonical);
    }
}
