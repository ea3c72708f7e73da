package dev.keyhaven.server.policy;

import static dev.keyhaven.policy.ValueType.ANY;
import static dev.keyhaven.policy.ValueType.BOOL;
import static dev.keyhaven.policy.ValueType.INT;
import static dev.keyhaven.policy.ValueType.STRING;
import static dev.keyhaven.policy.ValueType.TIMESTAMP;
import static dev.keyhaven.policy.ValueType.listOf;
import static dev.keyhaven.policy.ValueType.struct;

import dev.keyhaven.chains.bitcoin.PartiallySignedTransaction;
import dev.keyhaven.chains.ethereum.EthereumTransactionView;
import dev.keyhaven.chains.solana.SolanaTransaction;
import dev.keyhaven.chains.tron.TronTransaction;
import dev.keyhaven.policy.ValueType;
import dev.keyhaven.policy.Vocabulary;
import java.util.Map;

/**
 * Every keyword Keyhaven binds for some activity, with its shape: the one list a policy is checked against when it is
 * created or updated ({@link PolicyCompiler#check}). A name that is not here is bound for no activity, so a policy
 * naming it is refused (400) instead of evaluating to an error on every activity, which for a DENY policy would mean
 * denying nothing. Which activity binds what is ARCHITECTURE.md's "Policy variables" table; the transaction keywords'
 * shapes are declared beside their parsers in keyhaven-chains.
 */
public final class PolicyVocabulary {
    /** {@code activity.params}: the union of every activity's parameters that policies may read. */
    private static final ValueType PARAMS = struct(Map.ofEntries(
            Map.entry("hash_function", STRING),
            Map.entry("encoding", STRING),
            Map.entry("type", STRING),
            Map.entry("user_ids", listOf(STRING)),
            Map.entry("user_id", STRING),
            Map.entry("api_key_ids", listOf(STRING)),
            Map.entry("wallet_id", STRING),
            Map.entry("target_public_key", STRING),
            Map.entry("otp_length", INT),
            Map.entry("session_profile_id", STRING),
            Map.entry("provider", STRING),
            Map.entry("client_id", STRING),
            Map.entry("oauth2_credential_id", STRING),
            Map.entry("delivery_id", STRING)));

    private static final ValueType ETH = struct(Map.of(
            "tx", EthereumTransactionView.POLICY_TYPE,
            "eip_712",
                    struct(Map.of(
                            "primary_type",
                            STRING,
                            "domain",
                            struct(Map.of(
                                    "name", STRING, "version", STRING, "chain_id", ANY, "verifying_contract", STRING)),
                            "message",
                            ANY)),
            "eip_7702_authorization", struct(Map.of("address", STRING, "chain_id", ANY, "nonce", ANY))));

    public static final Vocabulary VOCABULARY = Vocabulary.of(Map.ofEntries(
            Map.entry(
                    "activity",
                    struct(Map.of(
                            "type", STRING, "kind", STRING, "resource", STRING, "action", STRING, "params", PARAMS))),
            Map.entry(
                    "approvers",
                    listOf(struct(Map.of("id", STRING, "tags", listOf(STRING), "email", STRING, "alias", STRING)))),
            Map.entry(
                    "credentials",
                    listOf(struct(Map.of(
                            "id",
                            STRING,
                            "user_id",
                            STRING,
                            "type",
                            STRING,
                            "public_key",
                            STRING,
                            "credential_id",
                            STRING)))),
            Map.entry("time", struct(Map.of("now", TIMESTAMP))),
            Map.entry("wallet", struct(Map.of("id", STRING, "label", STRING, "imported", BOOL, "exported", BOOL))),
            Map.entry("wallet_account", struct(Map.of("address", STRING))),
            Map.entry(
                    "private_key",
                    struct(Map.of(
                            "id",
                            STRING,
                            "label",
                            STRING,
                            "tags",
                            listOf(STRING),
                            "imported",
                            BOOL,
                            "exported",
                            BOOL))),
            Map.entry("eth", ETH),
            Map.entry("solana", struct(Map.of("tx", SolanaTransaction.POLICY_TYPE))),
            Map.entry("tron", struct(Map.of("tx", TronTransaction.POLICY_TYPE))),
            Map.entry("bitcoin", struct(Map.of("tx", PartiallySignedTransaction.POLICY_TYPE)))));

    private PolicyVocabulary() {}
}
