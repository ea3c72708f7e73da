package dev.keyhaven.chains.solana;

import static dev.keyhaven.chains.solana.SolanaTransactionTest.field;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.keyhaven.policy.StructValue;
import dev.keyhaven.policy.UnreadableValue;
import dev.keyhaven.policy.Value;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How instruction data decodes with an IDL, and what is bound as unreadable when it does not. */
class AnchorInstructionReaderTest {
    private static final String PROGRAM = "Prog111111111111111111111111111111111111111";
    private static final AnchorIdl IDL = AnchorIdl.parse("""
            {"instructions": [
              {"name": "go", "discriminator": [1],
               "accounts": [{"name": "payer", "signer": true},
                            {"name": "pool", "accounts": [{"name": "authority"}, {"name": "vault", "writable": true}]},
                            {"name": "fees", "accounts": [{"name": "authority"}]},
                            {"name": "referral", "optional": true}],
               "args": [{"name": "flag", "type": "bool"},
                        {"name": "maybe", "type": {"option": "u8"}},
                        {"name": "list", "type": {"vec": {"option": "u16"}}},
                        {"name": "kind", "type": {"defined": {"name": "Kind"}}},
                        {"name": "text", "type": "string"}]},
              {"name": "deep", "discriminator": [2], "accounts": [],
               "args": [{"name": "node", "type": {"defined": {"name": "Node"}}}]},
              {"name": "many", "discriminator": [3], "accounts": [],
               "args": [{"name": "units", "type": {"vec": {"defined": {"name": "Empty"}}}}]},
              {"name": "huge", "discriminator": [4], "accounts": [],
               "args": [{"name": "grid", "type": {"array": [{"array": ["u8", 1000000]}, 1000000]}}]},
              {"name": "loop", "discriminator": [5], "accounts": [],
               "args": [{"name": "a", "type": {"defined": {"name": "A"}}}]},
              {"name": "wide", "discriminator": [6], "accounts": [],
               "args": [{"name": "u", "type": "u256"}, {"name": "i", "type": "i256"},
                        {"name": "f", "type": "f32"}, {"name": "d", "type": "f64"}]},
              {"name": "odd", "discriminator": [7], "accounts": [],
               "args": [{"name": "c", "type": {"coption": "u8"}}]}],
             "types": [
              {"name": "Kind", "type": {"kind": "enum", "variants": [{"name": "Plain"},
                                                                   {"name": "Pair", "fields": ["u8", "u8"]}]}},
              {"name": "Node",
               "type": {"kind": "struct",
                        "fields": [{"name": "next", "type": {"option": {"defined": {"name": "Node"}}}}]}},
              {"name": "Empty", "type": {"kind": "struct"}},
              {"name": "A", "type": {"kind": "type", "alias": {"defined": {"name": "B"}}}},
              {"name": "B", "type": {"kind": "type", "alias": {"defined": {"name": "A"}}}}]}
            """);
    private static final byte[] GO = {1, 1, 1, 5, 2, 0, 0, 0, 1, 7, 0, 0, 1, 3, 4, 2, 0, 0, 0, 'h', 'i'};

    private static List<MessageAccount> accounts(String... keys) {
        return Arrays.stream(keys)
                .map(key -> new MessageAccount(key, false, false))
                .toList();
    }

    private static Value read(List<MessageAccount> accounts, byte[] data) {
        return AnchorInstructionReader.read(IDL, PROGRAM, accounts, data);
    }

    private static Value args(byte[] data) {
        return field(read(accounts("Payer", "A", "V", "F"), data), "program_call_args");
    }

    private static byte[] bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }

    private static Value unreadable(String instruction, String why) {
        return Value.unreadable("the data of instruction " + instruction + " does not decode with the IDL uploaded "
                + "for program " + PROGRAM + ": " + why);
    }

    @Test
    void decodesOptionsEnumsAndStrings() {
        Value parsed = read(accounts("Payer", "PoolAuthority", "Vault", "FeeAuthority", PROGRAM), GO);

        assertThat(field(parsed, "program_call_args"))
                .isEqualTo(Value.struct(Map.of(
                        "flag", Value.of(true),
                        "maybe", Value.of(5),
                        "list", Value.list(Value.of(7), Value.struct(Map.of())),
                        "kind", Value.struct(Map.of("Pair", Value.list(Value.of(3), Value.of(4)))),
                        "text", Value.of("hi"))));
        assertThat(field(parsed, "named_accounts"))
                .isEqualTo(Value.struct(Map.of(
                        "payer",
                        Value.of("Payer"),
                        "pool.authority",
                        Value.of("PoolAuthority"),
                        "vault",
                        Value.of("Vault"),
                        "fees.authority",
                        Value.of("FeeAuthority"))));
        assertThat(field(parsed, "discriminator")).isEqualTo(Value.of("01"));
    }

    @Test
    void leavesAnAbsentOptionOut() {
        byte[] data = bytes(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

        assertThat(((StructValue) args(data)).fields())
                .containsOnlyKeys("flag", "list", "kind", "text")
                .containsEntry("kind", Value.of("Plain"));
    }

    @Test
    void omitsOptionalAccountsThatAreAbsentOrLeftOff() {
        Value withReferral = read(accounts("Payer", "A", "V", "F", "Referrer"), GO);
        Value leftOff = read(accounts("Payer", "A", "V", "F"), GO);

        assertThat(field(field(withReferral, "named_accounts"), "referral")).isEqualTo(Value.of("Referrer"));
        assertThat(((StructValue) field(leftOff, "named_accounts")).fields()).doesNotContainKey("referral");
        assertThat(read(accounts("Payer", "A"), GO))
                .isEqualTo(Value.unreadable(
                        "instruction go of program " + PROGRAM + " has 2 accounts, fewer than the IDL requires"));
    }

    @Test
    void bindsDataThatDoesNotDecodeAsUnreadable() {
        byte[] trailing = Arrays.copyOf(GO, GO.length + 1);
        byte[] badBool = GO.clone();
        badBool[1] = 2;
        byte[] badOption = GO.clone();
        badOption[2] = 3;
        byte[] badVariant = GO.clone();
        badVariant[12] = 2;
        byte[] badUtf8 = GO.clone();
        badUtf8[19] = (byte) 0xc3;

        assertThat(read(List.of(), trailing))
                .isEqualTo(unreadable("go", "1 bytes are left after the arguments" + " (at byte 21 of the data)"));
        assertThat(read(List.of(), badBool))
                .isEqualTo(unreadable("go", "bool byte 2 is neither 0 nor 1" + " (at byte 1 of the data)"));
        assertThat(read(List.of(), badOption))
                .isEqualTo(unreadable("go", "option tag 3 is neither 0 nor 1" + " (at byte 2 of the data)"));
        assertThat(read(List.of(), badVariant))
                .isEqualTo(unreadable("go", "variant 2 of enum Kind, which has 2" + " (at byte 12 of the data)"));
        assertThat(read(List.of(), badUtf8))
                .isEqualTo(unreadable("go", "a string is not valid UTF-8" + " (at byte 19 of the data)"));
        assertThat(read(List.of(), Arrays.copyOf(GO, 10)))
                .isEqualTo(unreadable("go", "u16 needs 2 bytes, 1 remain" + " (at byte 9 of the data)"));
        assertThat(read(List.of(), bytes(9, 1)))
                .isEqualTo(
                        Value.unreadable("the data matches no instruction of the IDL uploaded for program " + PROGRAM));
        assertThat(read(List.of(), new byte[0])).isInstanceOf(UnreadableValue.class);
    }

    @Test
    void boundsRecursionAndTheNumberOfValues() {
        List<Integer> deep = new ArrayList<>(List.of(2));
        for (int i = 0; i < 40; i++) {
            deep.add(1);
        }
        deep.add(0);
        byte[] deepData = bytes(deep.stream().mapToInt(Integer::intValue).toArray());

        assertThat(read(List.of(), deepData))
                .isEqualTo(unreadable("deep", "types nest deeper than 32 levels" + " (at byte 17 of the data)"));
        assertThat(read(List.of(), bytes(3, 0xff, 0xff, 0xff, 0xff)))
                .isEqualTo(unreadable("many", "more than 4096 values (at byte 5 of the data)"));
        assertThat(read(List.of(), bytes(5)))
                .isEqualTo(unreadable("loop", "types nest deeper than 32 levels" + " (at byte 1 of the data)"));
    }

    @Test
    void failsFastOnHugeArrays() {
        byte[] data = new byte[1200];
        data[0] = 4;

        Value parsed = assertTimeoutPreemptively(Duration.ofSeconds(2), () -> read(List.of(), data));

        assertThat(parsed).isInstanceOf(UnreadableValue.class);
    }

    @Test
    void decodesWideIntegersAndFloats() {
        byte[] data = new byte[1 + 32 + 32 + 4 + 8];
        data[0] = 6;
        Arrays.fill(data, 1, 33, (byte) 0xff);
        data[64] = (byte) 0x80;
        byte[] nan = bytes(0x00, 0x00, 0xc0, 0x7f);
        System.arraycopy(nan, 0, data, 65, 4);
        byte[] tenBillion = bytes(0x00, 0x00, 0x00, 0x20, 0x5f, 0xa0, 0x02, 0x42);
        System.arraycopy(tenBillion, 0, data, 69, 8);

        assertThat(args(data))
                .isEqualTo(Value.struct(Map.of(
                        "u", Value.of(BigInteger.TWO.pow(256).subtract(BigInteger.ONE)),
                        "i", Value.unreadable("an i256 below the policy language's smallest integer"),
                        "f", Value.of("NaN"),
                        "d", Value.of("10000000000"))));
    }

    @Test
    void bindsConstructsItDoesNotDecodeAsUnreadable() {
        assertThat(read(List.of(), bytes(7, 0, 0, 0, 0, 0)))
                .isEqualTo(unreadable(
                        "odd", "the IDL uses a COption, which Keyhaven does not decode (at byte 1 of the data)"));
    }

    @Test
    void writesFloatsAsTheirShortestDecimalText() {
        assertThat(BorshDecoder.decimal(0.0025)).isEqualTo("0.0025");
        assertThat(BorshDecoder.decimal(1e-7)).isEqualTo("0.0000001");
        assertThat(BorshDecoder.decimal(-0.0)).isEqualTo("0");
        assertThat(BorshDecoder.decimal(Double.NEGATIVE_INFINITY)).isEqualTo("-Infinity");
        assertThat(BorshDecoder.decimal(0.1f)).isEqualTo("0.1");
        assertThat(BorshDecoder.decimal(1.5f)).isEqualTo("1.5");
    }
}
