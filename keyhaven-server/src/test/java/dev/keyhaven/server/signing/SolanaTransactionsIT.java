package dev.keyhaven.server.signing;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.Requests.WalletAccountParams;
import dev.keyhaven.crypto.address.Base58Text;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.NonRootUser;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.Policies;
import dev.keyhaven.server.testing.SolanaTransactions;
import dev.keyhaven.server.testing.SolanaTransactions.Instruction;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import tools.jackson.databind.JsonNode;

/**
 * {@code sign_transaction} for {@code TRANSACTION_TYPE_SOLANA} on both stores: the signature in signWith's own slot
 * (the fee payer's or another's; other slots as they came), a key that is no signer refused naming it, and policies
 * reading {@code solana.tx}: transfers, and instructions decoded through an uploaded Anchor IDL or, without one,
 * unreadable, so a DENY about them fails closed.
 */
class SolanaTransactionsIT extends OnBothStores {
    private static final HexFormat HEX = HexFormat.of();
    private static final String TYPE = "TRANSACTION_TYPE_SOLANA";
    private static final SecureRandom RANDOM = new SecureRandom();
    /** A program of the test's own, with an IDL whose one instruction, ping(count: u64), is discriminated by 1..8. */
    private static final String PROGRAM = "JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4";

    private static final String IDL = """
            {"address":"JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4","metadata":{"name":"pinger","version":"0.1.0",
             "spec":"0.1.0"},"instructions":[{"name":"ping","discriminator":[1,2,3,4,5,6,7,8],
             "accounts":[{"name":"payer","writable":true,"signer":true}],"args":[{"name":"count","type":"u64"}]}],
             "types":[]}""";

    private String address;
    private String publicKey;
    private String ethereumAddress;
    private NonRootUser alice;

    @BeforeParameterizedClassInvocation
    void createAccounts() {
        String walletId = root.createWallet(
                        "solana",
                        List.of(
                                WalletAccountParams.of("CURVE_ED25519", "m/44'/501'/0'/0'", "ADDRESS_FORMAT_SOLANA"),
                                WalletAccountParams.ethereum(0)))
                .result()
                .path("walletId")
                .asString();
        JsonNode accounts =
                root.query("list_wallet_accounts", Map.of("walletId", walletId)).path("accounts");
        address = accounts.get(0).path("address").asString();
        publicKey = accounts.get(0).path("publicKey").asString();
        ethereumAddress = accounts.get(1).path("address").asString();
        alice = NonRootUser.create(root, "alice");
    }

    @AfterEach
    void deletePoliciesAndInterfaces() {
        Policies.deleteAll(root);
        for (JsonNode c : root.query("list_smart_contract_interfaces", Map.of()).path("smartContractInterfaces")) {
            root.submit(
                    "delete_smart_contract_interface",
                    "ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE",
                    Map.of(
                            "smartContractInterfaceId",
                            c.path("smartContractInterfaceId").asString()),
                    "deleteSmartContractInterfaceResult");
        }
    }

    private static String newKey() {
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        return Base58Text.encode(key);
    }

    private byte[] signed(Activity activity) {
        assertThat(activity.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        return HEX.parseHex(activity.result().path("signedTransaction").asString());
    }

    private boolean verifies(byte[] message, byte[] signature) {
        Ed25519Signer verifier = new Ed25519Signer();
        verifier.init(false, new Ed25519PublicKeyParameters(HEX.parseHex(publicKey)));
        verifier.update(message, 0, message.length);
        return verifier.verifySignature(signature);
    }

    @Test
    void theFeePayerSignsTheMessageInTheFirstSlot() {
        byte[] unsigned = SolanaTransactions.transfer(address, newKey(), 1_000);
        byte[] signed = signed(root.signTransaction(address, TYPE, HEX.formatHex(unsigned)));
        assertThat(signed).hasSameSizeAs(unsigned);
        byte[] message = SolanaTransactions.message(unsigned, 1);
        assertThat(SolanaTransactions.message(signed, 1)).isEqualTo(message);
        assertThat(verifies(message, Arrays.copyOfRange(signed, 1, 65))).isTrue();
    }

    @Test
    void aSecondSignerSignsItsOwnSlotAndLeavesTheFirstAsItCame() {
        String payer = newKey();
        byte[] unsigned = SolanaTransactions.legacy(
                List.of(payer, address, newKey(), SolanaTransactions.SYSTEM_PROGRAM),
                2,
                1,
                List.of(new Instruction(3, List.of(1, 2), SolanaTransactions.systemTransfer(5))));
        byte[] payerSignature = new byte[64];
        Arrays.fill(payerSignature, (byte) 0x5a);
        System.arraycopy(payerSignature, 0, unsigned, 1, 64);
        byte[] signed = signed(root.signTransaction(address, TYPE, HEX.formatHex(unsigned)));
        assertThat(Arrays.copyOfRange(signed, 1, 65)).isEqualTo(payerSignature);
        assertThat(verifies(SolanaTransactions.message(unsigned, 2), Arrays.copyOfRange(signed, 65, 129)))
                .isTrue();
    }

    @Test
    void aKeyThatIsNoSignerOfTheTransactionIsRefusedByName() {
        String payer = newKey();
        KeyhavenApiException refused = apiError(
                ErrorCode.BAD_REQUEST,
                null,
                () -> root.signTransaction(
                        address, TYPE, HEX.formatHex(SolanaTransactions.transfer(payer, address, 1))));
        assertThat(refused.serverMessage())
                .isEqualTo("signWith is not a required signer of this Solana transaction: " + address
                        + " is none of its 1 signers (" + payer + ")");
        KeyhavenApiException truncated = apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.unsignedTransaction",
                () -> root.signTransaction(
                        address,
                        TYPE,
                        HEX.formatHex(Arrays.copyOf(SolanaTransactions.transfer(address, payer, 1), 100))));
        assertThat(truncated.serverMessage())
                .startsWith("bad request body: parameters.unsignedTransaction is not an "
                        + "unsigned Solana transaction: ");
        KeyhavenApiException wrongCurve = apiError(
                ErrorCode.BAD_REQUEST,
                null,
                () -> root.signTransaction(
                        ethereumAddress, TYPE, HEX.formatHex(SolanaTransactions.transfer(address, payer, 1))));
        assertThat(wrongCurve.serverMessage())
                .isEqualTo("TRANSACTION_TYPE_SOLANA needs a CURVE_ED25519 key, not " + "CURVE_SECP256K1");
    }

    @Test
    void policiesReadTheTransfers() {
        String recipient = newKey();
        Policies.allow(root, "solana.tx.transfers.count == 1 && solana.tx.transfers[0].to == '" + recipient + "'");
        Policies.deny(root, "solana.tx.transfers.any(t, t.amount > 1000000000)");
        assertThat(alice.client()
                        .signTransaction(
                                address, TYPE, HEX.formatHex(SolanaTransactions.transfer(address, recipient, 5_000)))
                        .isCompleted())
                .isTrue();
        assertThat(alice.client()
                        .signTransaction(
                                address, TYPE, HEX.formatHex(SolanaTransactions.transfer(address, newKey(), 5_000)))
                        .status())
                .isEqualTo("ACTIVITY_STATUS_FAILED");
        assertThat(alice.client()
                        .signTransaction(
                                address,
                                TYPE,
                                HEX.formatHex(SolanaTransactions.transfer(address, recipient, 2_000_000_000L)))
                        .status())
                .isEqualTo("ACTIVITY_STATUS_FAILED");
    }

    private byte[] ping(long count) {
        byte[] data = ByteBuffer.allocate(16)
                .order(ByteOrder.LITTLE_ENDIAN)
                .put(new byte[] {1, 2, 3, 4, 5, 6, 7, 8})
                .putLong(count)
                .array();
        return SolanaTransactions.legacy(
                List.of(address, PROGRAM), 1, 0, List.of(new Instruction(1, List.of(0), data)));
    }

    @Test
    void instructionsAreReadThroughTheUploadedIdlAndFailClosedWithoutOne() {
        Policies.allow(root, "activity.kind == 'SIGN_TRANSACTION'");
        String deny = Policies.deny(
                root,
                "solana.tx.instructions.any(i, i.program_key == '" + PROGRAM
                        + "' && i.parsed_instruction_data.program_call_args['count'] > 10)");
        Activity unreadable = alice.client().signTransaction(address, TYPE, HEX.formatHex(ping(3)));
        assertThat(unreadable.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        JsonNode outcome = root.getPolicyEvaluations(unreadable.id())
                .get(0)
                .path("policyEvaluations")
                .get(1);
        assertThat(outcome.path("policyId").asString()).isEqualTo(deny);
        assertThat(outcome.path("failsClosed").asBoolean()).isTrue();
        assertThat(outcome.path("error").asString()).contains("no IDL uploaded for program " + PROGRAM);
        // A plain transfer has no instruction of that program: the DENY is plainly false for it.
        assertThat(alice.client()
                        .signTransaction(
                                address, TYPE, HEX.formatHex(SolanaTransactions.transfer(address, newKey(), 1)))
                        .isCompleted())
                .isTrue();

        assertThat(root.submit(
                                "create_smart_contract_interface",
                                "ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE",
                                Map.of(
                                        "type",
                                        "SMART_CONTRACT_INTERFACE_TYPE_SOLANA",
                                        "smartContractAddress",
                                        PROGRAM,
                                        "smartContractInterface",
                                        IDL,
                                        "label",
                                        "pinger"),
                                "createSmartContractInterfaceResult")
                        .isCompleted())
                .isTrue();
        assertThat(alice.client()
                        .signTransaction(address, TYPE, HEX.formatHex(ping(3)))
                        .isCompleted())
                .isTrue();
        Activity many = alice.client().signTransaction(address, TYPE, HEX.formatHex(ping(11)));
        assertThat(many.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        assertThat(root.getPolicyEvaluations(many.id())
                        .get(0)
                        .path("policyEvaluations")
                        .get(1)
                        .path("outcome")
                        .asString())
                .isEqualTo("OUTCOME_DENY_EXPLICIT");
        Policies.deleteAll(root);
        Policies.allow(
                root,
                "solana.tx.instructions.all(i, i.parsed_instruction_data.instruction_name == 'ping' "
                        + "&& i.parsed_instruction_data.named_accounts['payer'] == '" + address + "')");
        assertThat(alice.client()
                        .signTransaction(address, TYPE, HEX.formatHex(ping(1)))
                        .isCompleted())
                .isTrue();
    }
}
