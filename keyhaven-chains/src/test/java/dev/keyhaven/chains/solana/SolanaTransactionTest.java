package dev.keyhaven.chains.solana;

import static dev.keyhaven.chains.solana.SolanaVectors.BLOCKHASH;
import static dev.keyhaven.chains.solana.SolanaVectors.JUPITER;
import static dev.keyhaven.chains.solana.SolanaVectors.LOOKUP;
import static dev.keyhaven.chains.solana.SolanaVectors.SYSTEM_PROGRAM;
import static dev.keyhaven.chains.solana.SolanaVectors.TOKEN_PROGRAM;
import static dev.keyhaven.chains.solana.SolanaVectors.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.policy.ListValue;
import dev.keyhaven.policy.StructValue;
import dev.keyhaven.policy.Value;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

class SolanaTransactionTest {

    static Value valueWithoutIdls(SolanaTransaction transaction) {
        Value value = transaction.policyValue(program -> Optional.empty());
        assertThat(SolanaTransaction.POLICY_TYPE.mismatch(value)).isEmpty();
        return value;
    }

    static Value field(Value struct, String name) {
        return ((StructValue) struct).fields().get(name);
    }

    static Value account(String key, boolean signer, boolean writable) {
        return Value.struct(
                Map.of("account_key", Value.of(key), "signer", Value.of(signer), "writable", Value.of(writable)));
    }

    @Test
    void bindsEveryFieldOfALegacySystemTransfer() {
        SolanaTransaction transaction = SolanaVectors.parse("legacy_system_transfer");

        assertThat(valueWithoutIdls(transaction))
                .isEqualTo(Value.struct(Map.of(
                        "account_keys", Value.strings(List.of(key(1), key(3), SYSTEM_PROGRAM)),
                        "program_keys", Value.strings(List.of(SYSTEM_PROGRAM)),
                        "recent_blockhash", Value.of(BLOCKHASH),
                        "instructions",
                                Value.list(Value.struct(Map.of(
                                        "program_key",
                                        Value.of(SYSTEM_PROGRAM),
                                        "accounts",
                                        Value.list(account(key(1), true, true), account(key(3), false, true)),
                                        "instruction_data_hex",
                                        Value.of("0200000040420f0000000000"),
                                        "address_table_lookups",
                                        Value.list(),
                                        "parsed_instruction_data",
                                        Value.unreadable(
                                                "no IDL uploaded for program 11111111111111111111111111111111")))),
                        "transfers",
                                Value.list(Value.struct(Map.of(
                                        "from",
                                        Value.of(key(1)),
                                        "to",
                                        Value.of(key(3)),
                                        "amount",
                                        Value.of(1_000_000)))),
                        "spl_transfers", Value.list(),
                        "address_table_lookups", Value.list())));
    }

    @Test
    void signsTheMessageAfterTheSignatureSlots() {
        SolanaTransaction transaction = SolanaVectors.parse("legacy_system_transfer");

        assertThat(transaction.message()).isEqualTo(SolanaVectors.hex("legacy_system_transfer", "message"));
        assertThat(transaction.requiredSigners()).containsExactly(key(1));
        assertThat(transaction.programKeys()).containsExactly(SYSTEM_PROGRAM);
    }

    @Test
    void readsATransferWithSeedFromTheDerivedAccount() {
        Value value = valueWithoutIdls(SolanaVectors.parse("legacy_transfer_with_seed"));

        assertThat(field(value, "transfers"))
                .isEqualTo(Value.list(Value.struct(Map.of(
                        "from",
                        Value.of(SolanaVectors.text("derived_vault")),
                        "to",
                        Value.of(key(3)),
                        "amount",
                        Value.of(777)))));
    }

    @Test
    void signsTheSlotOfASecondSigner() throws Exception {
        SolanaTransaction transaction = SolanaVectors.parse("legacy_two_signers");
        Ed25519PrivateKeyParameters secondKey = new Ed25519PrivateKeyParameters(SolanaVectors.seed(2));
        byte[] publicKey = secondKey.generatePublicKey().getEncoded();
        Ed25519Signer signer = new Ed25519Signer();
        signer.init(true, secondKey);
        byte[] message = transaction.message();
        signer.update(message, 0, message.length);
        byte[] signature = signer.generateSignature();

        byte[] signed = transaction.withSignature(publicKey, signature);

        assertThat(transaction.requiredSigners()).containsExactly(key(1), key(2));
        assertThat(signed).isEqualTo(SolanaVectors.hex("legacy_two_signers", "signedBySecond"));
        byte[] slot = Arrays.copyOfRange(signed, 1 + 64, 1 + 128);
        Ed25519Signer verifier = new Ed25519Signer();
        verifier.init(false, new Ed25519PublicKeyParameters(publicKey));
        verifier.update(message, 0, message.length);
        assertThat(verifier.verifySignature(slot)).isTrue();
        assertThat(Arrays.copyOfRange(signed, 1, 65)).isEqualTo(new byte[64]);
        assertThat(Arrays.copyOfRange(signed, 129, signed.length)).isEqualTo(message);
        assertThat(SolanaTransaction.parse(signed).message()).isEqualTo(message);
    }

    @Test
    void refusesToSignForAKeyThatIsNotASigner() {
        SolanaTransaction transaction = SolanaVectors.parse("legacy_two_signers");
        byte[] recipient = new Ed25519PrivateKeyParameters(SolanaVectors.seed(3))
                .generatePublicKey()
                .getEncoded();

        assertThatThrownBy(() -> transaction.withSignature(recipient, new byte[64]))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessage(key(3) + " is not a required signer of this transaction");
        assertThatThrownBy(() -> transaction.withSignature(new byte[31], new byte[64]))
                .isInstanceOf(TransactionFormatException.class);
        assertThatThrownBy(() -> transaction.withSignature(recipient, new byte[63]))
                .isInstanceOf(TransactionFormatException.class);
    }

    @Test
    void leavesTheParsedTransactionUnchangedWhenSigning() {
        byte[] wire = SolanaVectors.wire("legacy_system_transfer");
        SolanaTransaction transaction = SolanaTransaction.parse(wire);
        byte[] publicKey = new Ed25519PrivateKeyParameters(SolanaVectors.seed(1))
                .generatePublicKey()
                .getEncoded();
        byte[] signature = new byte[64];
        Arrays.fill(signature, (byte) 0x5a);

        byte[] signed = transaction.withSignature(publicKey, signature);
        wire[0] = 9;

        assertThat(Arrays.copyOfRange(signed, 1, 65)).isEqualTo(signature);
        assertThat(transaction.withSignature(publicKey, new byte[64]))
                .isEqualTo(SolanaVectors.wire("legacy_system_transfer"));
    }

    @Test
    void bindsLookupTableAccountsAsUnresolved() {
        SolanaTransaction transaction = SolanaVectors.parse("v0_lookup");
        Value value = valueWithoutIdls(transaction);
        Value lookups = Value.list(Value.struct(Map.of(
                "address_table_key", Value.of(key(10)),
                "writable_indexes", Value.list(Value.of(1), Value.of(3)),
                "readonly_indexes", Value.list(Value.of(2)))));

        assertThat(transaction.message()).isEqualTo(SolanaVectors.hex("v0_lookup", "message"));
        assertThat(transaction.programKeys()).containsExactly(SYSTEM_PROGRAM, TOKEN_PROGRAM, JUPITER);
        assertThat(field(value, "account_keys"))
                .isEqualTo(Value.strings(
                        List.of(key(1), key(4), SYSTEM_PROGRAM, TOKEN_PROGRAM, JUPITER, LOOKUP, LOOKUP, LOOKUP)));
        assertThat(field(value, "address_table_lookups")).isEqualTo(lookups);
        assertThat(field(value, "transfers"))
                .isEqualTo(Value.list(Value.struct(
                        Map.of("from", Value.of(key(1)), "to", Value.of(LOOKUP), "amount", Value.of(5_000_000)))));
        assertThat(field(value, "spl_transfers"))
                .isEqualTo(Value.list(Value.struct(Map.of(
                        "from",
                        Value.of(key(4)),
                        "to",
                        Value.of(LOOKUP),
                        "amount",
                        Value.of(250),
                        "owner",
                        Value.of(key(1)),
                        "signers",
                        Value.list(),
                        "token_mint",
                        Value.of(LOOKUP)))));
        Value splInstruction =
                ((ListValue) field(value, "instructions")).elements().get(1);
        assertThat(field(splInstruction, "accounts"))
                .isEqualTo(Value.list(
                        account(key(4), false, true),
                        account(LOOKUP, false, false),
                        account(LOOKUP, false, true),
                        account(key(1), true, true)));
        assertThat(field(splInstruction, "address_table_lookups")).isEqualTo(lookups);
        assertThat(field(splInstruction, "instruction_data_hex")).isEqualTo(Value.of("0cfa0000000000000002"));
    }

    @ParameterizedTest
    @FieldSource("dev.keyhaven.chains.solana.SolanaVectors#TRANSACTIONS")
    void keepsTheWireBytesAndFitsThePolicyType(String name) {
        SolanaTransaction transaction = SolanaVectors.parse(name);
        byte[] wire = SolanaVectors.wire(name);
        int slots = transaction.requiredSigners().size();

        assertThat(transaction.message()).isEqualTo(SolanaVectors.hex(name, "message"));
        assertThat(wire.length - transaction.message().length).isEqualTo(1 + 64 * slots);
        valueWithoutIdls(transaction);
    }

    @Test
    void asksForTheIdlOfEachProgramOnce() {
        SolanaTransaction transaction = SolanaVectors.parse("legacy_spl");
        List<String> asked = new ArrayList<>();

        transaction.policyValue(program -> {
            asked.add(program);
            return Optional.empty();
        });

        assertThat(asked).containsExactly(TOKEN_PROGRAM);
    }

    @Test
    void readsAmountsAsUnsigned64BitIntegers() {
        byte[] wire = new WireBuilder()
                .slots(1)
                .bytes(1, 0, 1)
                .compact(3)
                .key(1)
                .key(3)
                .key(0)
                .key(7)
                .compact(1)
                .instruction(2, new int[] {0, 1}, HexFormat.of().parseHex("02000000ffffffffffffffff"))
                .build();

        Value value = valueWithoutIdls(SolanaTransaction.parse(wire));

        assertThat(field(value, "transfers"))
                .isEqualTo(Value.list(Value.struct(Map.of(
                        "from", Value.of(SolanaKeys.base58(SolanaVectors.seed(1))),
                        "to", Value.of(SolanaKeys.base58(SolanaVectors.seed(3))),
                        "amount", Value.of(BigInteger.TWO.pow(64).subtract(BigInteger.ONE))))));
    }
}
