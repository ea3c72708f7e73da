package dev.keyhaven.chains.solana;

import static dev.keyhaven.chains.solana.SolanaTransactionTest.field;
import static dev.keyhaven.chains.solana.SolanaTransactionTest.valueWithoutIdls;
import static dev.keyhaven.chains.solana.SolanaVectors.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.policy.Value;
import fr.acinq.bitcoin.Base58;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code spl_transfers}: SPL Token and Token-2022 transfers, from spl-token 0.4.15's instructions. */
class TokenTransfersTest {

    private static Value transfer(
            String from, String to, long amount, String owner, List<String> signers, String mint) {
        return Value.struct(Map.of(
                "from",
                Value.of(from),
                "to",
                Value.of(to),
                "amount",
                Value.of(amount),
                "owner",
                Value.of(owner),
                "signers",
                Value.strings(signers),
                "token_mint",
                Value.of(mint)));
    }

    private static Value splTransfers(String transaction) {
        return field(valueWithoutIdls(SolanaVectors.parse(transaction)), "spl_transfers");
    }

    @Test
    void readsTransferWithoutAMintAndTransferCheckedWithOne() {
        assertThat(splTransfers("legacy_spl"))
                .isEqualTo(Value.list(
                        transfer(key(4), key(5), 42_000_000, key(1), List.of(), ""),
                        transfer(key(4), key(5), 1_500_000, key(1), List.of(), key(6))));
    }

    @Test
    void listsTheSignersOfAMultisigAuthority() {
        assertThat(splTransfers("legacy_spl_multisig"))
                .isEqualTo(Value.list(transfer(key(4), key(5), 9, key(7), List.of(key(8), key(9)), key(6))));
    }

    @Test
    void readsToken2022TransferCheckedWithFee() {
        assertThat(splTransfers("legacy_token2022_fee"))
                .isEqualTo(Value.list(transfer(key(4), key(5), 1_000_000, key(1), List.of(), key(6))));
        assertThat(field(valueWithoutIdls(SolanaVectors.parse("legacy_token2022_fee")), "transfers"))
                .isEqualTo(Value.list());
    }

    /** Payer 1, source 4, destination 5, mint 6, then {@code program}: one instruction of {@code data}. */
    private static byte[] tokenTransaction(String program, int[] accounts, byte[] data) {
        return new WireBuilder()
                .slots(1)
                .bytes(1, 0, 2)
                .compact(5)
                .key(1)
                .key(4)
                .key(5)
                .key(6)
                .bytes(Base58.decode(program))
                .key(7)
                .compact(1)
                .instruction(4, accounts, data)
                .build();
    }

    @Test
    void leavesTheFeeExtensionOutOfTheClassicTokenProgram() {
        byte[] withFee = HexFormat.of().parseHex("1a0140420f0000000000068813000000000000");

        Value classic = field(
                valueWithoutIdls(SolanaTransaction.parse(
                        tokenTransaction(SolanaVectors.TOKEN_PROGRAM, new int[] {1, 3, 2, 0}, withFee))),
                "spl_transfers");

        assertThat(classic).isEqualTo(Value.list());
    }

    @Test
    void refusesTransfersWhoseDataOrAccountsDoNotFit() {
        byte[] longTransfer = HexFormat.of().parseHex("0380de80020000000000");
        assertThatThrownBy(() -> SolanaTransaction.parse(
                        tokenTransaction(SolanaVectors.TOKEN_PROGRAM, new int[] {1, 2, 0}, longTransfer)))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessage("instruction 0: an SPL Token Transfer has 9 bytes of data, this one 10");
        byte[] checked = HexFormat.of().parseHex("0c60e316000000000006");
        assertThatThrownBy(() -> SolanaTransaction.parse(
                        tokenTransaction(SolanaVectors.TOKEN_2022_PROGRAM, new int[] {1, 3, 2}, checked)))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessage("instruction 0: an SPL Token TransferChecked needs 4 accounts, this one has 3");
        byte[] shortFee = HexFormat.of().parseHex("1a0140420f00000000000688130000000000");
        assertThatThrownBy(() -> SolanaTransaction.parse(
                        tokenTransaction(SolanaVectors.TOKEN_2022_PROGRAM, new int[] {1, 3, 2, 0}, shortFee)))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessage("instruction 0: a Token-2022 TransferCheckedWithFee has 19 bytes of data, this one 18");
    }

    @Test
    void bindsNoTransferForOtherTokenInstructions() {
        byte[] approve = HexFormat.of().parseHex("0480de800200000000");

        Value transfers = field(
                valueWithoutIdls(SolanaTransaction.parse(
                        tokenTransaction(SolanaVectors.TOKEN_PROGRAM, new int[] {1, 2, 0}, approve))),
                "spl_transfers");

        assertThat(transfers).isEqualTo(Value.list());
    }
}
