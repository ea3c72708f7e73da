package dev.keyhaven.server.smartcontract;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.Requests.WalletAccountParams;
import dev.keyhaven.crypto.Digests;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.EthereumTransactions;
import dev.keyhaven.server.testing.NonRootUser;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.Policies;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import tools.jackson.databind.JsonNode;

/**
 * Smart-contract interfaces on both stores: their four operations and every refusal, and policies that read a
 * contract call through an uploaded ABI ({@code function_name}, {@code contract_call_args}), that fail closed on a call
 * to a contract without one, and that see the call again as unreadable once its ABI is deleted.
 */
class SmartContractInterfacesIT extends OnBothStores {
    /** WETH9's functions as its published ABI writes them (the argument names Turnkey's examples use). */
    static final String WETH_ABI = """
            [{"type":"function","name":"deposit","inputs":[],"outputs":[],"stateMutability":"payable"},
             {"type":"function","name":"withdraw","inputs":[{"name":"wad","type":"uint256"}],"outputs":[],
              "stateMutability":"nonpayable"},
             {"type":"function","name":"transfer","inputs":[{"name":"dst","type":"address"},
              {"name":"wad","type":"uint256"}],"outputs":[{"name":"","type":"bool"}],"stateMutability":"nonpayable"},
             {"type":"function","name":"approve","inputs":[{"name":"guy","type":"address"},
              {"name":"wad","type":"uint256"}],"outputs":[{"name":"","type":"bool"}],"stateMutability":"nonpayable"},
             {"type":"event","name":"Deposit","inputs":[{"name":"dst","type":"address","indexed":true},
              {"name":"wad","type":"uint256","indexed":false}],"anonymous":false}]""";

    static final String WETH = "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2";
    private static final String OTHER_CONTRACT = "0x" + "77".repeat(20);
    private static final String SPENDER = "08d2b0a37f869ff76bacb5bab3278e26ab7067b7";
    private static final String IDL = """
            {"address":"11111111111111111111111111111111","metadata":{"name":"noop","version":"0.1.0",
             "spec":"0.1.0"},"instructions":[{"name":"ping","discriminator":[1,2,3,4,5,6,7,8],"accounts":[],
             "args":[{"name":"count","type":"u64"}]}],"types":[]}""";
    private static final String PROGRAM = "JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4";

    private String address;
    private NonRootUser alice;

    @BeforeParameterizedClassInvocation
    void createAccount() {
        String walletId = root.createWallet("abi", List.of(WalletAccountParams.ethereum(0)))
                .result()
                .path("walletId")
                .asString();
        address = root.query("list_wallet_accounts", Map.of("walletId", walletId))
                .path("accounts")
                .get(0)
                .path("address")
                .asString();
        alice = NonRootUser.create(root, "alice");
    }

    @AfterEach
    void deleteInterfacesAndPolicies() {
        Policies.deleteAll(root);
        for (JsonNode c : root.query("list_smart_contract_interfaces", Map.of()).path("smartContractInterfaces")) {
            delete(c.path("smartContractInterfaceId").asString());
        }
    }

    private Activity create(String type, String contract, String document, String label) {
        Map<String, Object> parameters = new HashMap<>(Map.of(
                "type", type, "smartContractAddress", contract, "smartContractInterface", document, "label", label));
        parameters.put("notes", "notes of " + label);
        return root.submit(
                "create_smart_contract_interface",
                "ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE",
                parameters,
                "createSmartContractInterfaceResult");
    }

    private String createAbi(String contract) {
        Activity created = create("SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM", contract, WETH_ABI, "WETH");
        assertThat(created.isCompleted()).isTrue();
        return created.result().path("smartContractInterfaceId").asString();
    }

    private Activity delete(String id) {
        return root.submit(
                "delete_smart_contract_interface",
                "ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE",
                Map.of("smartContractInterfaceId", id),
                "deleteSmartContractInterfaceResult");
    }

    @Test
    void anInterfaceIsCreatedReadListedReferencedAndDeleted() {
        String id = createAbi(WETH);
        JsonNode stored = root.query("get_smart_contract_interface", Map.of("smartContractInterfaceId", id))
                .path("smartContractInterface");
        assertThat(stored.path("smartContractInterfaceId").asString()).isEqualTo(id);
        assertThat(stored.path("organizationId").asString()).isEqualTo(root.organizationId());
        assertThat(stored.path("smartContractAddress").asString()).isEqualTo(WETH);
        assertThat(stored.path("smartContractInterface").asString()).isEqualTo(WETH_ABI);
        assertThat(stored.path("type").asString()).isEqualTo("ETHEREUM");
        assertThat(stored.path("label").asString()).isEqualTo("WETH");
        assertThat(stored.path("notes").asString()).isEqualTo("notes of WETH");
        assertThat(stored.path("createdAt").path("seconds").asString()).matches("\\d+");
        assertThat(stored.path("updatedAt").path("nanos").asString()).matches("\\d+");

        Activity idl = create("SMART_CONTRACT_INTERFACE_TYPE_SOLANA", PROGRAM, IDL, "noop");
        assertThat(idl.isCompleted()).isTrue();
        JsonNode listed = root.query("list_smart_contract_interfaces", Map.of()).path("smartContractInterfaces");
        assertThat(listed).hasSize(2);
        assertThat(listed.get(1).path("type").asString()).isEqualTo("SOLANA");
        JsonNode references = root.getOrganization().path("smartContractInterfaceReferences");
        assertThat(references).hasSize(2);
        assertThat(references.get(0).path("smartContractInterfaceId").asString())
                .isEqualTo(id);
        assertThat(references.get(0).path("smartContractAddress").asString()).isEqualTo(WETH);
        assertThat(references.get(0).path("digest").asString())
                .isEqualTo(HexFormat.of().formatHex(Digests.sha256(WETH_ABI.getBytes(StandardCharsets.UTF_8))));

        Activity deleted = delete(id);
        assertThat(deleted.result().path("smartContractInterfaceId").asString()).isEqualTo(id);
        KeyhavenApiException gone = apiError(
                ErrorCode.NOT_FOUND,
                null,
                () -> root.query("get_smart_contract_interface", Map.of("smartContractInterfaceId", id)));
        assertThat(gone.serverMessage()).startsWith("no smart contract interface found with id " + id + " in ");
        assertThat(apiError(() -> delete(id)).httpStatus()).isEqualTo(404);
    }

    @Test
    void refusesWhatIsNotAnInterfaceNamingTheField() {
        String eth = "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM";
        String sol = "SMART_CONTRACT_INTERFACE_TYPE_SOLANA";
        assertRefused(() -> create("SMART_CONTRACT_INTERFACE_TYPE_TRON", WETH, WETH_ABI, "x"), "parameters.type", "");
        assertRefused(
                () -> create(eth, "0x1234", WETH_ABI, "x"),
                "parameters.smartContractAddress",
                "must be an Ethereum address");
        assertRefused(
                () -> create(sol, WETH, IDL, "x"), "parameters.smartContractAddress", "must be a Solana program id");
        assertRefused(
                () -> create(sol, "0OIl" + "1".repeat(28), IDL, "x"),
                "parameters.smartContractAddress",
                "must be a Solana program id");
        assertRefused(
                () -> create(eth, WETH, "{\"not\":\"an array\"}", "x"),
                "parameters.smartContractInterface",
                "is not an Ethereum JSON ABI");
        assertRefused(
                () -> create(eth, WETH, "[{\"type\":\"function\"", "x"),
                "parameters.smartContractInterface",
                "is not an Ethereum JSON ABI");
        assertRefused(
                () -> create(sol, PROGRAM, "{\"instructions\":[]}", "x"),
                "parameters.smartContractInterface",
                "is not a Solana Anchor IDL");
        assertRefused(
                () -> create(eth, WETH, "[" + " ".repeat(400 * 1024) + "]", "x"),
                "parameters.smartContractInterface",
                "is larger than 409600 bytes");
        assertRefused(() -> create(eth, WETH, WETH_ABI, " "), "parameters.label", "must not be blank");
        assertRefused(
                () -> root.submit(
                        "create_smart_contract_interface",
                        "ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE",
                        Map.of("type", eth, "smartContractAddress", WETH, "label", "x"),
                        "createSmartContractInterfaceResult"),
                "parameters.smartContractInterface",
                "is required");
        String id = createAbi(WETH);
        assertRefused(
                () -> create(eth, WETH.toLowerCase(Locale.ROOT), WETH_ABI, "again"),
                "parameters.smartContractAddress",
                "already has a smart contract interface of type "
                        + "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM in this organization (" + id + ")");
        assertThat(root.query("list_smart_contract_interfaces", Map.of()).path("smartContractInterfaces"))
                .hasSize(1);
        assertThat(apiError(() -> delete("nope")).httpStatus()).isEqualTo(404);
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "smartContractInterfaceId",
                                () -> root.query("get_smart_contract_interface", Map.of()))
                        .serverMessage())
                .isEqualTo("bad request body: smartContractInterfaceId is required");
    }

    /** {@code call} fails with a 400 blaming {@code field}, whose message says {@code problem} of it. */
    private static void assertRefused(Runnable call, String field, String problem) {
        assertThat(apiError(ErrorCode.BAD_REQUEST, field, call).serverMessage())
                .startsWith("bad request body: " + field + " " + problem);
    }

    private static String call(String selector, String... words) {
        StringBuilder data = new StringBuilder("0x").append(selector);
        for (String word : words) {
            data.append("0".repeat(64 - word.length())).append(word);
        }
        return data.toString();
    }

    private Activity send(String to, String data) {
        return alice.client()
                .signTransaction(
                        address, "TRANSACTION_TYPE_ETHEREUM", EthereumTransactions.eip1559(to, BigInteger.ZERO, data));
    }

    @Test
    void policiesReadTheCallThroughTheUploadedAbi() {
        String interfaceId = createAbi(WETH);
        Policies.allow(root, "activity.kind == 'SIGN_TRANSACTION'");
        String deny = Policies.deny(
                root, "eth.tx.function_name == 'approve' || " + "eth.tx.contract_call_args['wad'] > 1000");
        Activity approve = send(WETH, call("095ea7b3", SPENDER, "01"));
        assertThat(approve.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        assertThat(outcome(approve, deny).path("outcome").asString()).isEqualTo("OUTCOME_DENY_EXPLICIT");
        assertThat(send(WETH, call("2e1a7d4d", Long.toHexString(5000))).status())
                .isEqualTo("ACTIVITY_STATUS_FAILED");
        assertThat(send(WETH, call("2e1a7d4d", Long.toHexString(10))).isCompleted())
                .isTrue();
        assertThat(send(WETH, call("a9059cbb", SPENDER, "0a")).isCompleted()).isTrue();
        // deposit() has no wad: the DENY reads a key the call does not have and does not apply.
        assertThat(send(WETH, call("d0e30db0")).isCompleted()).isTrue();

        // A call to a contract without an ABI cannot be read: the DENY fails closed.
        Activity unknown = send(OTHER_CONTRACT, call("095ea7b3", SPENDER, "01"));
        assertThat(unknown.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        JsonNode failed = outcome(unknown, deny);
        assertThat(failed.path("outcome").asString()).isEqualTo("OUTCOME_ERROR");
        assertThat(failed.path("failsClosed").asBoolean()).isTrue();
        // A plain transfer to it has no call at all.
        assertThat(send(OTHER_CONTRACT, "").isCompleted()).isTrue();

        // Once the ABI is deleted, WETH calls are unreadable again.
        assertThat(delete(interfaceId).isCompleted()).isTrue();
        Activity afterDelete = send(WETH, call("a9059cbb", SPENDER, "0a"));
        assertThat(afterDelete.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        assertThat(outcome(afterDelete, deny).path("failsClosed").asBoolean()).isTrue();
    }

    @Test
    void anAllowReadsTheFunctionAndItsArguments() {
        createAbi(WETH);
        Policies.allow(
                root,
                "eth.tx.to == '" + WETH + "' && "
                        + "eth.tx.function_name == 'transfer' && eth.tx.function_signature == '0xa9059cbb' && "
                        + "eth.tx.contract_call_args['dst'] == '0x" + SPENDER + "'");
        assertThat(send(WETH, call("a9059cbb", SPENDER, "0a")).isCompleted()).isTrue();
        assertThat(send(WETH, call("a9059cbb", "99".repeat(20), "0a")).status()).isEqualTo("ACTIVITY_STATUS_FAILED");
    }

    private JsonNode outcome(Activity activity, String policyId) {
        for (JsonNode outcome : root.getPolicyEvaluations(activity.id()).get(0).path("policyEvaluations")) {
            if (outcome.path("policyId").asString().equals(policyId)) {
                return outcome;
            }
        }
        throw new AssertionError("no outcome of " + policyId);
    }
}
