package dev.keyhaven.policy;

import static dev.keyhaven.policy.EvaluationError.Kind.INDEX_OUT_OF_RANGE;
import static dev.keyhaven.policy.EvaluationError.Kind.MISSING_FIELD;
import static dev.keyhaven.policy.Evaluations.assertError;
import static dev.keyhaven.policy.Evaluations.assertFails;
import static dev.keyhaven.policy.Evaluations.assertHolds;
import static dev.keyhaven.policy.TurnkeyEnvironments.activity;
import static dev.keyhaven.policy.TurnkeyEnvironments.apiKey;
import static dev.keyhaven.policy.TurnkeyEnvironments.passkey;
import static dev.keyhaven.policy.TurnkeyEnvironments.user;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The 20 example policies of turnkey-api.md §4 (from Turnkey's documentation) and the email-auth prerequisite: each
 * consensus and condition holds in an environment it is written for, does not hold in another, and errs where
 * Turnkey's outcome is an error.
 */
class TurnkeyExamplesTest {
    private static final String USER = "7a3c5c1e-0d55-4a2b-9b1e-2f4c1d0e9a11";
    private static final String OTHER_USER = "d2b9e0a4-61c3-4f7e-8c2a-5e1f0b3d7c22";
    private static final String TAG = "5c1e7a3c-4a2b-0d55-9b1e-aa4c1d0e9a33";
    private static final String ADDRESS = "0x08d2b0a37f869ff76bacb5bab3278e26ab7067b7";
    private static final String SIGN_TX = "ACTIVITY_TYPE_SIGN_TRANSACTION_V2";
    private static final String SIGN_RAW = "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2";

    private static final String BY_USER = "approvers.any(user, user.id == '" + USER + "')";

    @Test
    void example01_userMaySignToOneAddress() {
        String condition = "eth.tx.to == '" + ADDRESS + "'";
        assertHolds(
                BY_USER,
                activity(SIGN_TX, "PRIVATE_KEY", "SIGN")
                        .approvers(user(OTHER_USER), user(USER))
                        .build());
        assertFails(
                BY_USER,
                activity(SIGN_TX, "PRIVATE_KEY", "SIGN")
                        .approvers(user(OTHER_USER))
                        .build());
        assertFails(
                BY_USER, activity(SIGN_TX, "PRIVATE_KEY", "SIGN").approvers().build());
        assertHolds(condition, signing(ethTx(ADDRESS, "0x", 0)).build());
        assertFails(
                condition,
                signing(ethTx("0x0000000000000000000000000000000000000001", "0x", 0))
                        .build());
        // A raw payload has no transaction: the condition errs instead of not applying.
        assertError(
                condition,
                activity(SIGN_RAW, "PRIVATE_KEY", "SIGN").eth(Map.of()).build(),
                MISSING_FIELD,
                "missing field 'tx' on 'eth'");
    }

    @Test
    void example02_userMayCreateWallets() {
        String condition = "activity.resource == 'WALLET' && activity.action == 'CREATE'";
        assertHolds(
                condition,
                activity("ACTIVITY_TYPE_CREATE_WALLET", "WALLET", "CREATE").build());
        assertFails(
                condition,
                activity("ACTIVITY_TYPE_DELETE_WALLETS", "WALLET", "DELETE").build());
        assertFails(
                condition,
                activity("ACTIVITY_TYPE_CREATE_USERS_V4", "USER", "CREATE").build());
    }

    @Test
    void example03_taggedUsersMayCreateUsers() {
        String consensus = "approvers.any(user, user.tags.contains('" + TAG + "'))";
        String condition = "activity.resource == 'USER' && activity.action == 'CREATE'";
        Environment tagged = activity("ACTIVITY_TYPE_CREATE_USERS_V4", "USER", "CREATE")
                .approvers(user(OTHER_USER), user(USER, "other-tag", TAG))
                .build();
        assertHolds(consensus, tagged);
        assertHolds(condition, tagged);
        assertFails(
                consensus,
                activity("ACTIVITY_TYPE_CREATE_USERS_V4", "USER", "CREATE")
                        .approvers(user(USER, "other-tag"))
                        .build());
        assertFails(
                condition,
                activity("ACTIVITY_TYPE_DELETE_USERS", "USER", "DELETE").build());
    }

    @Test
    void example04_twoTaggedApproversMayCreatePolicies() {
        String consensus = "approvers.filter(user, user.tags.contains('" + TAG + "')).count() >= 2";
        String condition = "activity.resource == 'POLICY' && activity.action == 'CREATE'";
        TurnkeyEnvironments createPolicy = activity("ACTIVITY_TYPE_CREATE_POLICY_V3", "POLICY", "CREATE");
        assertHolds(
                consensus,
                createPolicy
                        .approvers(user("a", TAG), user("b"), user("c", TAG))
                        .build());
        assertFails(consensus, createPolicy.approvers(user("a", TAG), user("b")).build());
        assertHolds(condition, createPolicy.build());
        assertFails(
                condition,
                activity("ACTIVITY_TYPE_UPDATE_POLICY_V2", "POLICY", "UPDATE").build());
    }

    @Test
    void example05_denyDeletesApprovedByTaggedUsers() {
        String consensus = "approvers.any(user, user.tags.contains('" + TAG + "'))";
        String condition = "activity.action == 'DELETE'";
        Environment delete = activity("ACTIVITY_TYPE_DELETE_USERS", "USER", "DELETE", Map.of())
                .approvers(user(USER, TAG))
                .build();
        assertHolds(consensus, delete);
        assertHolds(condition, delete);
        assertFails(
                condition,
                activity("ACTIVITY_TYPE_CREATE_WALLET", "WALLET", "CREATE").build());
    }

    @Test
    void example06to08_apiUserMayCreateSubOrganizationsRunAuthAndSign() {
        String subOrganizations = "activity.resource == 'ORGANIZATION' && activity.action == 'CREATE'";
        String auth = "activity.resource in ['AUTH', 'OTP'] && activity.action in ['CREATE','VERIFY']";
        String signing = "activity.kind == 'SIGN_TRANSACTION'";
        assertHolds(
                subOrganizations,
                activity("ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8", "ORGANIZATION", "CREATE")
                        .build());
        assertFails(
                subOrganizations,
                activity("ACTIVITY_TYPE_CREATE_WALLET", "WALLET", "CREATE").build());
        assertHolds(auth, activity("ACTIVITY_TYPE_INIT_OTP_V3", "OTP", "CREATE").build());
        assertHolds(
                auth, activity("ACTIVITY_TYPE_VERIFY_OTP_V2", "OTP", "VERIFY").build());
        assertHolds(
                auth, activity("ACTIVITY_TYPE_OTP_LOGIN_V2", "AUTH", "CREATE").build());
        assertFails(
                auth,
                activity("ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2", "RECOVERY", "CREATE")
                        .build());
        assertFails(
                auth,
                activity("ACTIVITY_TYPE_DELETE_API_KEYS", "CREDENTIAL", "DELETE")
                        .build());
        assertHolds(signing, activity(SIGN_TX, "PRIVATE_KEY", "SIGN").build());
        assertFails(signing, activity(SIGN_RAW, "PRIVATE_KEY", "SIGN").build());
    }

    @Test
    void example09and10_credentialConsensus() {
        String anyPasskey = "credentials.any(credential, credential.type == 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR')";
        String oneKey = "credentials.any(credential, credential.public_key == '02a1b2c3')";
        String condition = "activity.type == '" + SIGN_TX + "'";
        Environment withPasskey = activity(SIGN_TX, "PRIVATE_KEY", "SIGN")
                .credentials(apiKey("k1", USER, "03ffee"), passkey("p1", USER, "cred-1", "02a1b2c3"))
                .build();
        Environment withApiKey = activity(SIGN_TX, "PRIVATE_KEY", "SIGN")
                .credentials(apiKey("k1", USER, "03ffee"))
                .build();
        assertHolds(anyPasskey, withPasskey);
        assertFails(anyPasskey, withApiKey);
        assertHolds(oneKey, withPasskey);
        assertFails(oneKey, withApiKey);
        assertHolds(condition, withPasskey);
        assertFails(condition, activity(SIGN_RAW, "PRIVATE_KEY", "SIGN").build());
        // credential_id is populated only for passkeys: reading it over API keys errs.
        assertError(
                "credentials.any(c, c.credential_id == 'cred-1')",
                withPasskey,
                MISSING_FIELD,
                "missing field 'credential_id' on 'c'");
    }

    @Test
    void example11_exportOneAccount() {
        String condition = "activity.action == 'EXPORT' && wallet_account.address == '" + ADDRESS + "'";
        TurnkeyEnvironments export = activity(
                "ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT",
                "WALLET",
                "EXPORT",
                Map.of("target_public_key", Value.of("04ab")));
        assertHolds(condition, export.walletAccount(ADDRESS).build());
        assertFails(
                condition,
                export.walletAccount("0x0000000000000000000000000000000000000002")
                        .build());
    }

    @Test
    void example12_signWithOneWalletErrsWhenAPrivateKeySigns() {
        String condition = "activity.action == 'SIGN' && wallet.id == 'wallet-1'";
        assertHolds(
                condition,
                signing(Map.of()).wallet("wallet-1").walletAccount(ADDRESS).build());
        assertFails(
                condition,
                signing(Map.of()).wallet("wallet-2").walletAccount(ADDRESS).build());
        assertFails(
                condition,
                activity("ACTIVITY_TYPE_EXPORT_WALLET", "WALLET", "EXPORT")
                        .wallet("wallet-1")
                        .build());
        assertError(
                condition, signing(Map.of()).privateKey("key-1").build(), MISSING_FIELD, "missing keyword 'wallet'");
        // The error is not hidden by the other side deciding: the action is EXPORT here, so && is already false.
        assertError(
                condition,
                activity("ACTIVITY_TYPE_EXPORT_PRIVATE_KEY", "PRIVATE_KEY", "EXPORT")
                        .privateKey("key-1")
                        .build(),
                MISSING_FIELD);
    }

    @Test
    void example13_signWithOnePrivateKeyErrsWhenAWalletSigns() {
        String condition = "activity.action == 'SIGN' && private_key.id == 'key-1'";
        assertHolds(condition, signing(Map.of()).privateKey("key-1", "hot").build());
        assertFails(condition, signing(Map.of()).privateKey("key-2").build());
        assertError(
                condition,
                signing(Map.of()).wallet("wallet-1").build(),
                MISSING_FIELD,
                "missing keyword 'private_key'");
    }

    @Test
    void example14_denyUnhashedRawPayloadsExceptEip712() {
        String condition = "activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2' && activity.params.hash_function == "
                + "'HASH_FUNCTION_NO_OP' && activity.params.encoding != 'PAYLOAD_ENCODING_EIP712'";
        assertHolds(condition, rawPayload("HASH_FUNCTION_NO_OP", "PAYLOAD_ENCODING_HEXADECIMAL"));
        assertFails(condition, rawPayload("HASH_FUNCTION_NO_OP", "PAYLOAD_ENCODING_EIP712"));
        assertFails(condition, rawPayload("HASH_FUNCTION_KECCAK256", "PAYLOAD_ENCODING_HEXADECIMAL"));
        // SIGN_TRANSACTION_V2 has only params.type: reading hash_function is a missing field.
        assertError(
                condition,
                activity(SIGN_TX, "PRIVATE_KEY", "SIGN", Map.of("type", Value.of("TRANSACTION_TYPE_ETHEREUM")))
                        .build(),
                MISSING_FIELD,
                "missing field 'hash_function' on 'activity.params'");
    }

    @Test
    void example15_deleteExactlyOneNamedUser() {
        String condition = "activity.type == 'ACTIVITY_TYPE_DELETE_USERS' && activity.params.user_ids.count() == 1 "
                + "&& '" + USER + "' in activity.params.user_ids";
        assertHolds(condition, deleteUsers(USER));
        assertFails(condition, deleteUsers(OTHER_USER));
        assertFails(condition, deleteUsers(USER, OTHER_USER));
        assertFails(condition, deleteUsers());
    }

    @Test
    void example16_erc20TransfersToOneContract() {
        String condition = "eth.tx.to == '" + ADDRESS + "' && eth.tx.data[0..10] == '0xa9059cbb'";
        String transfer = "0xa9059cbb000000000000000000000000d2b9e0a461c34f7e8c2a5e1f0b3d7c22aaaaaaaa"
                + "0000000000000000000000000000000000000000000000000de0b6b3a7640000";
        assertHolds(condition, signing(ethTx(ADDRESS, transfer, 0)).build());
        assertFails(
                condition,
                signing(ethTx(ADDRESS, "0x095ea7b3" + transfer.substring(10), 0))
                        .build());
        assertFails(
                condition,
                signing(ethTx("0x0000000000000000000000000000000000000003", transfer, 0))
                        .build());
        // A plain ETH transfer has no calldata to slice.
        assertError(
                condition,
                signing(ethTx(ADDRESS, "0x", 0)).build(),
                INDEX_OUT_OF_RANGE,
                "slice [0..10] is out of range for 'eth.tx.data' of length 2");
    }

    @Test
    void example17_sepoliaOnly() {
        String condition = "eth.tx.chain_id == 11155111";
        assertHolds(condition, signing(ethTx(ADDRESS, "0x", 11155111)).build());
        assertFails(condition, signing(ethTx(ADDRESS, "0x", 1)).build());
    }

    @Test
    void example18_exactlyOneSolanaTransferToOneRecipient() {
        String condition = "solana.tx.transfers.count == 1 && solana.tx.transfers[0].to == 'Recipient111'";
        assertHolds(
                condition,
                activity(SIGN_TX, "PRIVATE_KEY", "SIGN")
                        .solanaTransfers(transfer("Sender111", "Recipient111", 5_000))
                        .build());
        assertFails(
                condition,
                activity(SIGN_TX, "PRIVATE_KEY", "SIGN")
                        .solanaTransfers(transfer("Sender111", "Other111", 5_000))
                        .build());
        assertFails(
                condition,
                activity(SIGN_TX, "PRIVATE_KEY", "SIGN")
                        .solanaTransfers(
                                transfer("Sender111", "Recipient111", 5_000), transfer("Sender111", "Other111", 1))
                        .build());
        // With no transfer at all, transfers[0] is still evaluated: no short-circuit.
        assertError(
                condition,
                activity(SIGN_TX, "PRIVATE_KEY", "SIGN").solanaTransfers().build(),
                INDEX_OUT_OF_RANGE);
    }

    @Test
    void example19_usdcPermitSignatures() {
        String condition = "eth.eip_712.domain.name == 'USD Coin' && eth.eip_712.primary_type == 'Permit' && "
                + "activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'";
        assertHolds(
                condition,
                activity(SIGN_RAW, "PRIVATE_KEY", "SIGN")
                        .eth(eip712("USD Coin", "Permit"))
                        .build());
        assertFails(
                condition,
                activity(SIGN_RAW, "PRIVATE_KEY", "SIGN")
                        .eth(eip712("Dai", "Permit"))
                        .build());
        assertFails(
                condition,
                activity(SIGN_RAW, "PRIVATE_KEY", "SIGN")
                        .eth(eip712("USD Coin", "TransferWithAuthorization"))
                        .build());
        assertError(
                condition,
                activity(SIGN_RAW, "PRIVATE_KEY", "SIGN").eth(Map.of()).build(),
                MISSING_FIELD,
                "missing field 'eip_712' on 'eth'");
    }

    @Test
    void example20_signingDuringMarch2026() {
        String time = "time.now >= Timestamp('2026-03-01T00:00:00Z') && time.now < Timestamp('2026-04-01T00:00:00Z')";
        assertFails(time, new TurnkeyEnvironments().now("2026-02-28T23:59:59Z").build());
        assertHolds(time, new TurnkeyEnvironments().now("2026-03-01T00:00:00Z").build());
        assertHolds(
                time, new TurnkeyEnvironments().now("2026-03-31T23:59:59.999Z").build());
        assertFails(time, new TurnkeyEnvironments().now("2026-04-01T00:00:00Z").build());
        assertError(time, Environment.empty(), MISSING_FIELD, "missing keyword 'time'");
        assertHolds(
                "activity.kind == 'SIGN_TRANSACTION'",
                activity(SIGN_TX, "PRIVATE_KEY", "SIGN").build());
    }

    @Test
    void emailAuthPrerequisite() {
        String condition = "(activity.resource == 'AUTH' && activity.action == 'CREATE') || "
                + "(activity.resource == 'ORGANIZATION' && activity.action == 'CREATE')";
        assertHolds(
                condition,
                activity("ACTIVITY_TYPE_EMAIL_AUTH_V3", "AUTH", "CREATE").build());
        assertHolds(
                condition,
                activity("ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8", "ORGANIZATION", "CREATE")
                        .build());
        assertFails(
                condition,
                activity("ACTIVITY_TYPE_INIT_OTP_V3", "OTP", "CREATE").build());
        assertFails(
                condition,
                activity("ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION", "ORGANIZATION", "DELETE")
                        .build());
    }

    private static TurnkeyEnvironments signing(Map<String, Value> eth) {
        return activity(SIGN_TX, "PRIVATE_KEY", "SIGN", Map.of("type", Value.of("TRANSACTION_TYPE_ETHEREUM")))
                .eth(eth);
    }

    private static Map<String, Value> ethTx(String to, String data, long chainId) {
        return Map.of(
                "tx",
                Value.struct(Map.of(
                        "to",
                        Value.of(to),
                        "data",
                        Value.of(data),
                        "chain_id",
                        Value.of(chainId),
                        "value",
                        Value.of(new BigInteger("1000000000000000000")),
                        "nonce",
                        Value.of(3))));
    }

    private static Map<String, Value> eip712(String domainName, String primaryType) {
        return Map.of(
                "eip_712",
                Value.struct(Map.of(
                        "primary_type",
                        Value.of(primaryType),
                        "domain",
                        Value.struct(Map.of(
                                "name",
                                Value.of(domainName),
                                "version",
                                Value.of("2"),
                                "chain_id",
                                Value.of(1),
                                "verifying_contract",
                                Value.of(ADDRESS))),
                        "message",
                        Value.struct(Map.of("value", Value.of(1_000_000))))));
    }

    private static Value transfer(String from, String to, long amount) {
        return Value.struct(Map.of("from", Value.of(from), "to", Value.of(to), "amount", Value.of(amount)));
    }

    private static Environment rawPayload(String hashFunction, String encoding) {
        return activity(
                        SIGN_RAW,
                        "PRIVATE_KEY",
                        "SIGN",
                        Map.of("hash_function", Value.of(hashFunction), "encoding", Value.of(encoding)))
                .build();
    }

    private static Environment deleteUsers(String... userIds) {
        return activity(
                        "ACTIVITY_TYPE_DELETE_USERS",
                        "USER",
                        "DELETE",
                        Map.of("user_ids", Value.strings(List.of(userIds))))
                .build();
    }
}
