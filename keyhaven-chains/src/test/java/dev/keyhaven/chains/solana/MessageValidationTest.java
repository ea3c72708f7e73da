package dev.keyhaven.chains.solana;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.policy.Value;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the runtime's sanitisation refuses, Keyhaven refuses when parsing: hand-written wire transactions. */
class MessageValidationTest {
    private static final byte[] TRANSFER = HexFormat.of().parseHex("0200000040420f0000000000");

    /** A legacy System transfer from key 1 to key 3: the valid base the cases below break one thing of. */
    private static WireBuilder legacyPrefix(int slots, int... header) {
        return new WireBuilder()
                .slots(slots)
                .bytes(header)
                .compact(3)
                .key(1)
                .key(3)
                .key(0)
                .key(7);
    }

    private static void assertRefused(byte[] wire, String message) {
        assertThatThrownBy(() -> SolanaTransaction.parse(wire))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessage(message);
    }

    @Test
    void acceptsTheHandWrittenBase() {
        byte[] wire = legacyPrefix(1, 1, 0, 1)
                .compact(1)
                .instruction(2, new int[] {0, 1}, TRANSFER)
                .build();

        assertThat(SolanaTransaction.parse(wire).requiredSigners())
                .containsExactly(SolanaKeys.base58(SolanaVectors.seed(1)));
    }

    @Test
    void refusesAnEmptyOrOversizedTransaction() {
        assertRefused(new byte[0], "the Solana transaction is empty");
        assertRefused(new byte[1233], "the Solana transaction is 1233 bytes; the network accepts at most 1232");
    }

    @Test
    void refusesAnUnknownMessageVersion() {
        byte[] wire = new WireBuilder().slots(1).bytes(0x81, 1, 0, 1).build();

        assertRefused(
                wire,
                "unsupported Solana message version 1 at byte offset 65 (Keyhaven reads legacy and v0 " + "messages)");
    }

    @Test
    void refusesSignatureSlotsThatDoNotMatchTheHeader() {
        byte[] wire = legacyPrefix(2, 1, 0, 1)
                .compact(1)
                .instruction(2, new int[] {0, 1}, TRANSFER)
                .build();

        assertRefused(wire, "the transaction has 2 signature slots but its message requires 1 signatures");
    }

    @Test
    void refusesAHeaderWithoutAWritableSigningFeePayer() {
        assertRefused(
                legacyPrefix(0, 0, 0, 1).compact(0).build(),
                "the message header requires no signature; the fee payer must sign");
        assertRefused(
                legacyPrefix(1, 1, 1, 1).compact(0).build(),
                "the message header makes all 1 signers read-only; the fee payer must be a writable signer");
    }

    @Test
    void refusesAHeaderThatCountsMoreAccountsThanTheKeys() {
        assertRefused(
                legacyPrefix(1, 1, 0, 3).compact(0).build(),
                "the message header counts 1 signers and 3 "
                        + "read-only unsigned accounts, more than its 3 account keys");
    }

    @Test
    void refusesARepeatedKey() {
        byte[] wire = new WireBuilder()
                .slots(1)
                .bytes(1, 0, 1)
                .compact(3)
                .key(1)
                .key(3)
                .key(1)
                .key(7)
                .compact(0)
                .build();

        assertRefused(wire, "account keys 0 and 2 are the same key");
    }

    @Test
    void refusesProgramIndexesTheRuntimeRefuses() {
        assertRefused(
                legacyPrefix(1, 1, 0, 1)
                        .compact(1)
                        .instruction(0, new int[] {1}, TRANSFER)
                        .build(),
                "instruction 0: its program is the fee payer (account 0)");
        assertRefused(
                legacyPrefix(1, 1, 0, 1)
                        .compact(1)
                        .instruction(3, new int[] {1}, TRANSFER)
                        .build(),
                "instruction 0: program index 3 is out of range (3 accounts)");
    }

    @Test
    void refusesAnAccountIndexOutOfRange() {
        byte[] wire = legacyPrefix(1, 1, 0, 1)
                .compact(2)
                .instruction(2, new int[] {0, 1}, TRANSFER)
                .instruction(2, new int[] {0, 3}, TRANSFER)
                .build();

        assertRefused(wire, "instruction 1, account 1: index 3 is out of range (3 accounts)");
    }

    @Test
    void refusesTrailingAndMissingBytes() {
        byte[] valid = legacyPrefix(1, 1, 0, 1)
                .compact(1)
                .instruction(2, new int[] {0, 1}, TRANSFER)
                .build();
        byte[] longer = new WireBuilder().bytes(valid).bytes(0).build();

        assertRefused(longer, "1 trailing bytes after the message at byte offset " + valid.length);
        assertRefused(
                Arrays.copyOf(valid, valid.length - 1),
                "instruction 0: data: count 12 at byte offset " + (valid.length - 13)
                        + " needs more bytes than the 11 that remain");
        assertRefused(
                Arrays.copyOf(valid, 65 + 3),
                "account keys: truncated at byte offset 68 (needs 1 bytes, 0 " + "remain)");
    }

    @Test
    void refusesCompactLengthsTheRuntimeRefuses() {
        assertRefused(
                new WireBuilder().bytes(0x81, 0x00).build(),
                "signatures: non-canonical compact-u16 length at byte offset 0");
        assertRefused(
                new WireBuilder().bytes(0xff, 0xff, 0x04).build(),
                "signatures: compact-u16 length above 65535 at byte offset 0");
        assertRefused(
                new WireBuilder().bytes(0xff, 0xff, 0x03).build(),
                "signatures: count 65535 at byte offset 0 needs more bytes than the 0 that remain");
    }

    @Test
    void readsTwoByteCompactLengths() {
        byte[] data = new byte[200];
        data[0] = 9;
        byte[] wire = legacyPrefix(1, 1, 0, 1)
                .compact(1)
                .instruction(2, new int[] {0, 1}, data)
                .build();

        SolanaTransaction transaction = SolanaTransaction.parse(wire);

        assertThat(wire[wire.length - 202] & 0xff).isEqualTo(0xc8);
        assertThat(transaction.message()).hasSize(wire.length - 65);
    }

    /** The start of a v0 message with static keys 1, 3 and the System Program, up to its instructions. */
    private static WireBuilder v0Prefix() {
        return new WireBuilder()
                .slots(1)
                .bytes(0x80, 1, 0, 1)
                .compact(3)
                .key(1)
                .key(3)
                .key(0)
                .key(7);
    }

    @Test
    void readsAccountsLoadedFromALookupTable() {
        byte[] wire = v0Prefix()
                .compact(1)
                .instruction(2, new int[] {0, 3, 4}, TRANSFER)
                .compact(1)
                .key(9)
                .compact(1)
                .bytes(5)
                .compact(1)
                .bytes(6)
                .build();

        SolanaTransaction transaction = SolanaTransaction.parse(wire);

        assertThat(transaction.message()[0] & 0xff).isEqualTo(0x80);
        assertThat(SolanaTransactionTest.field(SolanaTransactionTest.valueWithoutIdls(transaction), "transfers"))
                .isEqualTo(Value.list(Value.struct(Map.of(
                        "from", Value.of(SolanaKeys.base58(SolanaVectors.seed(1))),
                        "to", Value.of("ADDRESS_TABLE_LOOKUP"),
                        "amount", Value.of(1_000_000)))));
    }

    @Test
    void refusesAProgramFromALookupTable() {
        byte[] wire = v0Prefix()
                .compact(1)
                .instruction(3, new int[] {0, 1}, TRANSFER)
                .compact(1)
                .key(9)
                .compact(1)
                .bytes(5)
                .compact(0)
                .build();

        assertRefused(wire, "instruction 0: its program comes from an address lookup table, which Solana refuses");
    }

    @Test
    void refusesALookupThatLoadsNothing() {
        byte[] wire = v0Prefix()
                .compact(1)
                .instruction(2, new int[] {0, 1}, TRANSFER)
                .compact(1)
                .key(9)
                .compact(0)
                .compact(0)
                .build();

        assertRefused(wire, "address table lookup 0 loads no account");
    }

    @Test
    void refusesMoreThan256Accounts() {
        byte[] indexes = new byte[254];
        byte[] wire = v0Prefix()
                .compact(1)
                .instruction(2, new int[] {0, 1}, TRANSFER)
                .compact(1)
                .key(9)
                .compact(indexes.length)
                .bytes(indexes)
                .compact(0)
                .build();

        assertRefused(wire, "the message has 257 accounts; instructions can index at most 256");
    }

    @Test
    void refusesALegacyMessageWithLookups() {
        byte[] wire = legacyPrefix(1, 1, 0, 1)
                .compact(1)
                .instruction(2, new int[] {0, 1}, TRANSFER)
                .compact(1)
                .key(9)
                .compact(1)
                .bytes(5)
                .compact(0)
                .build();

        assertThatThrownBy(() -> SolanaTransaction.parse(wire))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessageStartingWith("36 trailing bytes after the message");
    }

    @Test
    void refusesAMalformedSystemTransfer() {
        byte[] longer = HexFormat.of().parseHex("0200000040420f000000000000");
        assertRefused(
                legacyPrefix(1, 1, 0, 1)
                        .compact(1)
                        .instruction(2, new int[] {0, 1}, longer)
                        .build(),
                "instruction 0: a System Program Transfer has 12 bytes of data, this one 13");
        assertRefused(
                legacyPrefix(1, 1, 0, 1)
                        .compact(1)
                        .instruction(2, new int[] {0}, TRANSFER)
                        .build(),
                "instruction 0: a System Program Transfer needs 2 accounts, this one has 1");
        byte[] badSeed = HexFormat.of()
                .parseHex("0b000000090300000000000006000000000000007661756c74"
                        + "0000000000000000000000000000000000000000000000000000000000000000");
        assertRefused(
                legacyPrefix(1, 1, 0, 1)
                        .compact(1)
                        .instruction(2, new int[] {0, 1, 1}, badSeed)
                        .build(),
                "instruction 0: a System Program TransferWithSeed with its seed length needs 58 bytes of data, this "
                        + "one has 57");
    }

    @Test
    void bindsNoTransferForOtherSystemInstructions() {
        byte[] createAccount = new byte[52];
        byte[] wire = legacyPrefix(1, 1, 0, 1)
                .compact(2)
                .instruction(2, new int[] {0, 1}, createAccount)
                .instruction(2, new int[] {0, 1}, new byte[] {2, 0, 0})
                .build();

        assertThat(SolanaTransactionTest.field(
                        SolanaTransactionTest.valueWithoutIdls(SolanaTransaction.parse(wire)), "transfers"))
                .isEqualTo(Value.list(List.of()));
    }
}
