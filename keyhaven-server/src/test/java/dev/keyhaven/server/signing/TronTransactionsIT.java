package dev.keyhaven.server.signing;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import dev.keyhaven.chains.tron.proto.Contract;
import dev.keyhaven.chains.tron.proto.RawTransaction;
import dev.keyhaven.chains.tron.proto.SignedTransaction;
import dev.keyhaven.chains.tron.proto.TransferContract;
import dev.keyhaven.chains.tron.proto.TriggerSmartContract;
import dev.keyhaven.client.Activity;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.Requests.WalletAccountParams;
import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.address.Base58Text;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.NonRootUser;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.Policies;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import tools.jackson.databind.JsonNode;

/**
 * {@code sign_transaction} for {@code TRANSACTION_TYPE_TRON} on both stores: the signed protobuf Transaction (its raw
 * part byte for byte, a signature that verifies over SHA-256 of it and recovers the account), and policies reading
 * {@code tron.tx}: allowing, denying, and failing closed on a contract type Keyhaven does not read.
 */
class TronTransactionsIT extends OnBothStores {
    private static final HexFormat HEX = HexFormat.of();
    private static final String TYPE = "TRANSACTION_TYPE_TRON";
    /** A TRC-20 contract in Turnkey's policy examples. */
    private static final String TOKEN = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf";

    private String address;
    private String publicKey;
    private String solanaAddress;
    private NonRootUser alice;

    @BeforeParameterizedClassInvocation
    void createAccounts() {
        String walletId = root.createWallet(
                        "tron",
                        List.of(
                                WalletAccountParams.of("CURVE_SECP256K1", "m/44'/195'/0'/0/0", "ADDRESS_FORMAT_TRON"),
                                WalletAccountParams.of("CURVE_ED25519", "m/44'/501'/0'/0'", "ADDRESS_FORMAT_SOLANA")))
                .result()
                .path("walletId")
                .asString();
        JsonNode accounts =
                root.query("list_wallet_accounts", Map.of("walletId", walletId)).path("accounts");
        address = accounts.get(0).path("address").asString();
        publicKey = accounts.get(0).path("publicKey").asString();
        solanaAddress = accounts.get(1).path("address").asString();
        alice = NonRootUser.create(root, "alice");
    }

    @AfterEach
    void deletePolicies() {
        Policies.deleteAll(root);
    }

    private static ByteString tronAddress(String base58) {
        return ByteString.copyFrom(Base58Text.decodeCheck(base58));
    }

    private RawTransaction.Builder raw() {
        return RawTransaction.newBuilder()
                .setRefBlockBytes(ByteString.copyFrom(HEX.parseHex("4a31")))
                .setRefBlockHash(ByteString.copyFrom(HEX.parseHex("d2f5e1ab6b4c2a90")))
                .setExpiration(1_764_000_060_000L)
                .setTimestamp(1_764_000_000_000L);
    }

    private byte[] transfer(long sun) {
        TransferContract transfer = TransferContract.newBuilder()
                .setOwnerAddress(tronAddress(address))
                .setToAddress(tronAddress(TOKEN))
                .setAmount(sun)
                .build();
        return raw().addContract(Contract.newBuilder()
                        .setType(Contract.ContractType.TransferContract)
                        .setParameter(Any.pack(transfer, "type.googleapis.com")))
                .build()
                .toByteArray();
    }

    private byte[] trc20Transfer() {
        TriggerSmartContract call = TriggerSmartContract.newBuilder()
                .setOwnerAddress(tronAddress(address))
                .setContractAddress(tronAddress(TOKEN))
                .setData(ByteString.copyFrom(
                        HEX.parseHex("a9059cbb" + "00".repeat(12) + "11".repeat(20) + "00".repeat(31) + "64")))
                .build();
        return raw().setFeeLimit(10_000_000)
                .addContract(Contract.newBuilder()
                        .setType(Contract.ContractType.TriggerSmartContract)
                        .setParameter(Any.pack(call, "type.googleapis.com")))
                .build()
                .toByteArray();
    }

    /** A VoteWitnessContract, a type Keyhaven signs but whose fields policies cannot read. */
    private byte[] vote() throws IOException {
        ByteArrayOutputStream vote = new ByteArrayOutputStream();
        CodedOutputStream voteOut = CodedOutputStream.newInstance(vote);
        voteOut.writeBytes(1, tronAddress(TOKEN));
        voteOut.writeInt64(2, 5);
        voteOut.flush();
        ByteArrayOutputStream parameter = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(parameter);
        out.writeBytes(1, tronAddress(address));
        out.writeBytes(2, ByteString.copyFrom(vote.toByteArray()));
        out.flush();
        return raw().addContract(Contract.newBuilder()
                        .setType(Contract.ContractType.VoteWitnessContract)
                        .setParameter(Any.newBuilder()
                                .setTypeUrl("type.googleapis.com/protocol.VoteWitnessContract")
                                .setValue(ByteString.copyFrom(parameter.toByteArray()))))
                .build()
                .toByteArray();
    }

    private Activity sign(NonRootUser as, byte[] raw) {
        return as.client().signTransaction(address, TYPE, HEX.formatHex(raw));
    }

    @Test
    void signsTheRawBytesAndReturnsTheSignedTransaction() throws Exception {
        byte[] raw = transfer(1_000_000);
        Activity activity = root.signTransaction(address, TYPE, HEX.formatHex(raw));
        assertThat(activity.isCompleted()).isTrue();
        SignedTransaction signed = SignedTransaction.parseFrom(
                HEX.parseHex(activity.result().path("signedTransaction").asString()));
        assertThat(signed.getRawData().toByteArray()).isEqualTo(raw);
        assertThat(signed.getSignatureCount()).isEqualTo(1);
        byte[] signature = signed.getSignature(0).toByteArray();
        assertThat(signature).hasSize(65);
        assertThat(signature[64]).isIn((byte) 0, (byte) 1);
        ECDSASigner verifier = new ECDSASigner();
        verifier.init(
                false,
                new ECPublicKeyParameters(
                        EcCurve.SECP256K1.decodePoint(HEX.parseHex(publicKey)), EcCurve.SECP256K1.domain()));
        assertThat(verifier.verifySignature(
                        Digests.sha256(raw),
                        new BigInteger(1, Arrays.copyOf(signature, 32)),
                        new BigInteger(1, Arrays.copyOfRange(signature, 32, 64))))
                .isTrue();
    }

    @Test
    void aDenyOnTheAmountDeniesLargeTransfersOnly() {
        Policies.allow(root, "activity.kind == 'SIGN_TRANSACTION'");
        Policies.deny(root, "tron.tx.contract[0].type == 'TransferContract' && tron.tx.contract[0].amount > 1000000");
        Activity large = sign(alice, transfer(2_000_000));
        assertThat(large.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        assertThat(sign(alice, transfer(500_000)).isCompleted()).isTrue();
        // The TRC-20 call has no amount: the DENY does not apply to it.
        assertThat(sign(alice, trc20Transfer()).isCompleted()).isTrue();
    }

    @Test
    void anAllowOnTheContractAndSelectorAllowsThatCallOnly() {
        Policies.allow(
                root,
                "tron.tx.contract[0].contract_address == '" + TOKEN
                        + "' && tron.tx.contract[0].data[0..8] == 'a9059cbb'");
        assertThat(sign(alice, trc20Transfer()).isCompleted()).isTrue();
        assertThat(sign(alice, transfer(1)).status()).isEqualTo("ACTIVITY_STATUS_FAILED");
    }

    @Test
    void aDenyOnFieldsOfAContractTypeKeyhavenDoesNotReadFailsClosed() throws Exception {
        Policies.allow(root, "activity.kind == 'SIGN_TRANSACTION'");
        String deny = Policies.deny(root, "tron.tx.contract[0].amount > 1000000");
        Activity voted = sign(alice, vote());
        assertThat(voted.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        JsonNode outcome = policyOutcome(voted.id(), deny);
        assertThat(outcome.path("outcome").asString()).isEqualTo("OUTCOME_ERROR");
        assertThat(outcome.path("failsClosed").asBoolean()).isTrue();
        assertThat(outcome.path("error").asString())
                .contains("UNREADABLE")
                .contains("Keyhaven does not read VoteWitnessContract");
    }

    @Test
    void refusesWhatIsNotATronTransactionNamingTheField() {
        KeyhavenApiException garbage = apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.unsignedTransaction",
                () -> root.signTransaction(address, TYPE, "0a02ff"));
        assertThat(garbage.serverMessage())
                .startsWith("bad request body: parameters.unsignedTransaction is not an unsigned Tron transaction: ");
        KeyhavenApiException notHex = apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.unsignedTransaction",
                () -> root.signTransaction(address, TYPE, "zz"));
        assertThat(notHex.serverMessage())
                .isEqualTo("bad request body: parameters.unsignedTransaction must be "
                        + "hexadecimal with an even number of digits");
        KeyhavenApiException wrongCurve = apiError(
                ErrorCode.BAD_REQUEST,
                null,
                () -> root.signTransaction(solanaAddress, TYPE, HEX.formatHex(transfer(1))));
        assertThat(wrongCurve.serverMessage())
                .isEqualTo("TRANSACTION_TYPE_TRON needs a CURVE_SECP256K1 key, not " + "CURVE_ED25519");
    }

    private JsonNode policyOutcome(String activityId, String policyId) {
        for (JsonNode evaluation : root.getPolicyEvaluations(activityId)) {
            for (JsonNode outcome : evaluation.path("policyEvaluations")) {
                if (outcome.path("policyId").asString().equals(policyId)) {
                    return outcome;
                }
            }
        }
        throw new AssertionError("no outcome of policy " + policyId);
    }
}
