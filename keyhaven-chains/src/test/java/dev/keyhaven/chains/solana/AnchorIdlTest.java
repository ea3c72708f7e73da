package dev.keyhaven.chains.solana;

import static dev.keyhaven.chains.solana.SolanaTransactionTest.field;
import static dev.keyhaven.chains.solana.SolanaVectors.JUPITER;
import static dev.keyhaven.chains.solana.SolanaVectors.LOOKUP;
import static dev.keyhaven.chains.solana.SolanaVectors.SYSTEM_PROGRAM;
import static dev.keyhaven.chains.solana.SolanaVectors.TOKEN_PROGRAM;
import static dev.keyhaven.chains.solana.SolanaVectors.key;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.policy.ListValue;
import dev.keyhaven.policy.Value;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code parsed_instruction_data} of instructions encoded by {@code @coral-xyz/anchor@0.32.1}'s BorshInstructionCoder,
 * read with the same program's IDL in the Anchor 0.30 format and in the one before it.
 */
class AnchorIdlTest {
    static final AnchorIdl MODERN = AnchorIdl.parse(SolanaVectors.resource("swap-idl-anchor-0.30.json"));
    static final AnchorIdl LEGACY = AnchorIdl.parse(SolanaVectors.resource("swap-idl-anchor-0.29.json"));

    /** The parsed data of instruction {@code index} of a vector transaction, with {@code idl} as Jupiter's. */
    static Value parsed(String transaction, AnchorIdl idl, int index) {
        Value tx = SolanaVectors.parse(transaction)
                .policyValue(program -> program.equals(JUPITER) ? Optional.of(idl) : Optional.empty());
        assertThat(SolanaTransaction.POLICY_TYPE.mismatch(tx)).isEmpty();
        Value instruction = ((ListValue) field(tx, "instructions")).elements().get(index);
        return field(instruction, "parsed_instruction_data");
    }

    static Value parsedData(String name, String discriminator, Map<String, Value> accounts, Map<String, Value> args) {
        Value named = Value.struct(accounts);
        return Value.struct(Map.of(
                "instruction_name",
                Value.of(name),
                "discriminator",
                Value.of(discriminator),
                "named_accounts",
                named,
                "named_account",
                named,
                "program_call_args",
                Value.struct(args)));
    }

    private static Value step(Value swap, int percent, int input, int output, String inputName, String outputName) {
        return Value.struct(Map.of(
                "swap", swap, "percent", Value.of(percent), inputName, Value.of(input), outputName, Value.of(output)));
    }

    @Test
    void decodesRouteWithTheAnchor030Idl() {
        assertThat(parsed("legacy_anchor_route", MODERN, 0))
                .isEqualTo(parsedData(
                        "route",
                        "e517cb977ae3ad2a",
                        Map.of(
                                "token_program",
                                Value.of(TOKEN_PROGRAM),
                                "user_transfer_authority",
                                Value.of(key(1)),
                                "user_source_token_account",
                                Value.of(key(4)),
                                "user_destination_token_account",
                                Value.of(key(5)),
                                "platform_fee_account",
                                Value.of(key(11))),
                        Map.of(
                                "route_plan",
                                Value.list(
                                        step(Value.of("Saber"), 60, 0, 1, "input_index", "output_index"),
                                        step(
                                                Value.struct(Map.of(
                                                        "Whirlpool", Value.struct(Map.of("a_to_b", Value.of(true))))),
                                                40,
                                                0,
                                                1,
                                                "input_index",
                                                "output_index"),
                                        step(
                                                Value.struct(
                                                        Map.of("Raydium", Value.list(Value.of(7), Value.of(key(12))))),
                                                100,
                                                1,
                                                2,
                                                "input_index",
                                                "output_index")),
                                "in_amount",
                                Value.of(995_500_000),
                                "quoted_out_amount",
                                Value.of(123_456_789),
                                "slippage_bps",
                                Value.of(50),
                                "platform_fee_bps",
                                Value.of(0),
                                "referrer",
                                Value.of(key(3)))));
    }

    @Test
    void decodesRouteWithTheAnchor029IdlUnderItsNames() {
        assertThat(parsed("legacy_anchor_route", LEGACY, 0))
                .isEqualTo(parsedData(
                        "route",
                        "e517cb977ae3ad2a",
                        Map.of(
                                "tokenProgram",
                                Value.of(TOKEN_PROGRAM),
                                "userTransferAuthority",
                                Value.of(key(1)),
                                "userSourceTokenAccount",
                                Value.of(key(4)),
                                "userDestinationTokenAccount",
                                Value.of(key(5)),
                                "platformFeeAccount",
                                Value.of(key(11))),
                        Map.of(
                                "routePlan",
                                Value.list(
                                        step(Value.of("Saber"), 60, 0, 1, "inputIndex", "outputIndex"),
                                        step(
                                                Value.struct(Map.of(
                                                        "Whirlpool", Value.struct(Map.of("aToB", Value.of(true))))),
                                                40,
                                                0,
                                                1,
                                                "inputIndex",
                                                "outputIndex"),
                                        step(
                                                Value.struct(
                                                        Map.of("Raydium", Value.list(Value.of(7), Value.of(key(12))))),
                                                100,
                                                1,
                                                2,
                                                "inputIndex",
                                                "outputIndex")),
                                "inAmount",
                                Value.of(995_500_000),
                                "quotedOutAmount",
                                Value.of(123_456_789),
                                "slippageBps",
                                Value.of(50),
                                "platformFeeBps",
                                Value.of(0),
                                "referrer",
                                Value.of(key(3)))));
    }

    @Test
    void decodesEveryKindOfArgument() {
        Map<String, Value> common = Map.of(
                "label", Value.of("keyhaven \u2713"),
                "payload", Value.of("deadbeef"),
                "limits", Value.list(Value.of(1), Value.of(2), Value.of(65535)),
                "ratio", Value.of("1.5"),
                "delta", Value.of(-42),
                "big", Value.of(BigInteger.ONE.shiftLeft(128).subtract(BigInteger.ONE)),
                "small", Value.of(BigInteger.ONE.shiftLeft(127).negate()),
                "tiny", Value.of(-7),
                "flag", Value.of(true),
                "mode", Value.of("Active"));
        Map<String, Value> modern = new HashMap<>(common);
        modern.putAll(Map.of(
                "fee_rate",
                Value.of("0.0025"),
                "fee_tier",
                Value.of(300),
                "window",
                Value.list(Value.of(10), Value.of(20))));
        Map<String, Value> legacy = new HashMap<>(common);
        legacy.putAll(Map.of(
                "feeRate",
                Value.of("0.0025"),
                "feeTier",
                Value.of(300),
                "window",
                Value.struct(Map.of("start", Value.of(10), "end", Value.of(20)))));

        assertThat(parsed("legacy_anchor_set_config", MODERN, 0))
                .isEqualTo(parsedData(
                        "set_config",
                        "6c9e9aafd4623442",
                        Map.of(
                                "authority",
                                Value.of(key(1)),
                                "config",
                                Value.of(key(2)),
                                "system_program",
                                Value.of(SYSTEM_PROGRAM)),
                        modern));
        assertThat(parsed("legacy_anchor_set_config", LEGACY, 0))
                .isEqualTo(parsedData(
                        "setConfig",
                        "6c9e9aafd4623442",
                        Map.of(
                                "authority",
                                Value.of(key(1)),
                                "config",
                                Value.of(key(2)),
                                "systemProgram",
                                Value.of(SYSTEM_PROGRAM)),
                        legacy));
    }

    @Test
    void namesAccountsLoadedFromALookupTable() {
        Value named = field(parsed("v0_lookup", MODERN, 2), "named_accounts");

        assertThat(named)
                .isEqualTo(Value.struct(Map.of(
                        "token_program",
                        Value.of(TOKEN_PROGRAM),
                        "user_transfer_authority",
                        Value.of(key(1)),
                        "user_source_token_account",
                        Value.of(key(4)),
                        "user_destination_token_account",
                        Value.of(LOOKUP),
                        "platform_fee_account",
                        Value.of(LOOKUP))));
    }

    @Test
    void bindsInstructionsOfOtherProgramsAsUnreadable() {
        assertThat(parsed("v0_lookup", MODERN, 0))
                .isEqualTo(Value.unreadable("no IDL uploaded for program " + SYSTEM_PROGRAM));
    }

    /** Jupiter v6's published discriminators, which Anchor derived from the snake-case names. */
    @ParameterizedTest
    @CsvSource({
        "route, e517cb977ae3ad2a",
        "sharedAccountsRoute, c1209b3341d69c81",
        "sharedAccountsRouteWithTokenLedger, e6798f50779f6aaa",
        "exactOutRoute, d033ef977b2bed5c",
        "shared_accounts_exact_out_route, b0d169a89a7d453e",
        "createTokenLedger, e8f2c5fdf08f8134",
    })
    void derivesAnchorDiscriminatorsFromNames(String name, String discriminator) {
        assertThat(HexFormat.of().formatHex(AnchorIdlReader.sighash(name))).isEqualTo(discriminator);
    }

    @ParameterizedTest
    @CsvSource({
        "sharedAccountsRoute, shared_accounts_route",
        "swapV2, swap_v2",
        "initializeV2Pool, initialize_v2_pool",
        "XMLHttpRequest, xml_http_request",
        "already_snake, already_snake",
        "Route, route",
        "__leading__, leading",
    })
    void writesNamesInSnakeCaseAsHeckDoes(String name, String snake) {
        assertThat(SnakeCase.of(name)).isEqualTo(snake);
    }
}
