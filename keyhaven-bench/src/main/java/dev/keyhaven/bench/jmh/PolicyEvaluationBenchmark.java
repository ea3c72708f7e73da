package dev.keyhaven.bench.jmh;

import dev.keyhaven.policy.Environment;
import dev.keyhaven.policy.EvaluationError;
import dev.keyhaven.policy.EvaluationResult;
import dev.keyhaven.policy.PolicyExpression;
import dev.keyhaven.policy.Value;
import dev.keyhaven.policy.engine.Ballot;
import dev.keyhaven.policy.engine.CompiledPolicy;
import dev.keyhaven.policy.engine.Effect;
import dev.keyhaven.policy.engine.Outcome;
import dev.keyhaven.policy.engine.PolicyEngine;
import dev.keyhaven.policy.engine.PolicyOutcome;
import dev.keyhaven.policy.engine.PolicyVerdict;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The policy engine's share of one activity: 100 compiled policies (Turnkey's per-organization limit) evaluated
 * against one activity's environment. The target is 100 µs for all of them on one core.
 *
 * <p>The policies are 20 shapes from Turnkey's documented examples, 5 of each with different ids: consensus over
 * {@code approvers} (3 users with tags) and {@code credentials}, conditions over {@code activity}, {@code wallet},
 * {@code wallet_account}, {@code private_key}, {@code eth.tx} and {@code eth.eip_712}, and {@code time} windows
 * ({@code Timestamp} bounds and a {@code CronSpan}). The activity is an Ethereum {@code SIGN_TRANSACTION_V2} from a
 * wallet account, so, as at Turnkey, the policies about private keys, EIP-712 payloads and raw-payload parameters end
 * in {@code MISSING_FIELD} errors; {@link #setUp} checks the mix of outcomes so that a change to the engine that
 * short-cuts work shows up as a failed setup rather than a faster number.
 *
 * <pre>
 * java -cp keyhaven-bench/target/keyhaven-bench.jar org.openjdk.jmh.Main PolicyEvaluationBenchmark -t 1
 * </pre>
 * {@link #decideWithHundredPolicies} is the engine's decision per activity (what the server runs), and
 * {@link #evaluateHundredPolicies} the bare expressions under it; {@link #compileHundredPolicies} is what filling the
 * server's cache of compiled policies costs once per policy text.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(1)
public class PolicyEvaluationBenchmark {
    private static final String TREASURY = "0x08d2b0a37f869ff76bacb5bab3278e26ab7067b7";
    private static final String SIGNER = "0x5c1e7a3c4a2b0d559b1eaa4c1d0e9a33d2b9e0a4";

    /**
     * Outcomes of the 185 expressions (100 conditions, 75 consensus, 10 time): true, false, error. The errors are the
     * conditions of shapes 6 ({@code private_key}), 10 ({@code eth.eip_712}) and 17 (raw-payload parameters).
     */
    private static final int[] EXPECTED_OUTCOMES = {119, 51, 15};

    private List<Policy> policies;
    private List<CompiledPolicy> compiled;
    private Ballot ballot;
    private List<String> sources;
    private Environment activity;

    /** One policy's compiled fields; an absent field is null, as the server will keep it. */
    private record Policy(PolicyExpression consensus, PolicyExpression condition, PolicyExpression time) {}

    @Setup
    public void setUp() {
        activity = signTransactionFromWallet();
        policies = new ArrayList<>();
        sources = new ArrayList<>();
        compiled = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            String[] fields = shape(i % 20, i / 20);
            Policy policy = new Policy(compile(fields[0]), compile(fields[1]), compile(fields[2]));
            policies.add(policy);
            // Shapes 3 and 17 are the documented DENY examples; the rest allow.
            compiled.add(new CompiledPolicy(
                    "policy-" + i,
                    i % 20 == 3 || i % 20 == 17 ? Effect.DENY : Effect.ALLOW,
                    orTrue(policy.condition),
                    orTrue(policy.consensus),
                    orTrue(policy.time)));
        }
        ballot = new Ballot() {
            @Override
            public Environment current() {
                return activity;
            }

            @Override
            public List<Environment> withMoreApprovals() {
                return List.of(activity);
            }
        };
        int[] outcomes = new int[3];
        for (Policy policy : policies) {
            for (PolicyExpression expression : Arrays.asList(policy.condition, policy.consensus, policy.time)) {
                if (expression != null) {
                    switch (expression.evaluate(activity)) {
                        case EvaluationResult.Decided(boolean holds) -> outcomes[holds ? 0 : 1]++;
                        case EvaluationError _ -> outcomes[2]++;
                    }
                }
            }
        }
        if (!Arrays.equals(outcomes, EXPECTED_OUTCOMES)) {
            throw new IllegalStateException("outcomes (true, false, error) are " + Arrays.toString(outcomes)
                    + ", expected " + Arrays.toString(EXPECTED_OUTCOMES));
        }
    }

    /** Condition, consensus and time of all 100 policies; returns how many held, so nothing is optimised away. */
    @Benchmark
    public int evaluateHundredPolicies() {
        int held = 0;
        for (Policy policy : policies) {
            held += holds(policy.condition) + holds(policy.consensus) + holds(policy.time);
        }
        return held;
    }

    /**
     * The engine's whole decision for one activity, as the server makes it: every policy's time, condition and
     * consensus through {@link PolicyEngine}, with its outcomes recorded; returns the number of ALLOW outcomes.
     */
    @Benchmark
    public int decideWithHundredPolicies() {
        PolicyVerdict verdict = PolicyEngine.evaluate(compiled, ballot);
        int allowed = 0;
        for (PolicyOutcome outcome : verdict.outcomes()) {
            allowed += outcome.outcome() == Outcome.ALLOW ? 1 : 0;
        }
        return allowed + verdict.verdict().ordinal();
    }

    @Benchmark
    public int compileHundredPolicies() {
        int keywords = 0;
        for (String source : sources) {
            keywords += PolicyExpression.parse(source).referencedKeywords().size();
        }
        return keywords;
    }

    private int holds(PolicyExpression expression) {
        return expression != null && expression.evaluate(activity) instanceof EvaluationResult.Decided(boolean b) && b
                ? 1
                : 0;
    }

    private static PolicyExpression orTrue(PolicyExpression expression) {
        return expression == null ? PolicyExpression.alwaysTrue() : expression;
    }

    private PolicyExpression compile(String source) {
        if (source == null) {
            return null;
        }
        sources.add(source);
        return PolicyExpression.parse(source);
    }

    /** Consensus, condition and time (each possibly null) of shape {@code shape}, with ids varied by {@code n}. */
    private static String[] shape(int shape, int n) {
        String user = "'user-" + (n % 4) + "'"; // users 0-2 approve; user-3 never does
        String byUser = "approvers.any(user, user.id == " + user + ")";
        return switch (shape) {
            case 0 -> new String[] {byUser, "activity.resource == 'WALLET' && activity.action == 'CREATE'", null};
            case 1 ->
                new String[] {
                    "approvers.any(user, user.tags.contains('tag-ops'))", "activity.kind == 'SIGN_TRANSACTION'", null
                };
            case 2 ->
                new String[] {
                    "approvers.filter(user, user.tags.contains('tag-ops')).count() >= 2",
                    "activity.resource == 'POLICY' && activity.action == 'CREATE'",
                    null
                };
            case 3 ->
                new String[] {
                    "approvers.any(user, user.tags.contains('tag-security'))", "activity.action == 'DELETE'", null
                };
            case 4 ->
                new String[] {
                    "credentials.any(credential, credential.type == 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR')",
                    "activity.type == 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2'",
                    null
                };
            case 5 -> new String[] {byUser, "activity.action == 'SIGN' && wallet.id == 'wallet-" + n + "'", null};
            case 6 -> new String[] {byUser, "activity.action == 'SIGN' && private_key.id == 'key-" + n + "'", null};
            case 7 ->
                new String[] {byUser, "activity.action == 'EXPORT' && wallet_account.address == '" + SIGNER + "'", null
                };
            case 8 ->
                new String[] {null, "eth.tx.to == '" + TREASURY + "' && eth.tx.data[0..10] == '0xa9059cbb'", null};
            case 9 ->
                new String[] {
                    null,
                    "eth.tx.chain_id == " + (n == 0 ? 1 : 11155111) + " && eth.tx.value <= 1000000000000000000000",
                    null
                };
            case 10 ->
                new String[] {
                    null,
                    "eth.eip_712.domain.name == 'USD Coin' && eth.eip_712.primary_type == "
                            + "'Permit' && activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'",
                    null
                };
            case 11 ->
                new String[] {
                    byUser, "activity.resource in ['AUTH', 'OTP'] && activity.action in ['CREATE','VERIFY']", null
                };
            case 12 ->
                new String[] {
                    byUser,
                    "(activity.resource == 'AUTH' && activity.action == 'CREATE') || "
                            + "(activity.resource == 'ORGANIZATION' && activity.action == 'CREATE')",
                    null
                };
            case 13 ->
                new String[] {
                    byUser,
                    "activity.kind == 'SIGN_TRANSACTION'",
                    "time.now >= Timestamp('2026-03-01T00:00:00Z') && time.now < Timestamp('2026-04-01T00:00:00Z')"
                };
            case 14 ->
                new String[] {
                    "approvers.any(user, user.tags.contains('tag-ops'))",
                    "activity.kind == 'SIGN_TRANSACTION' && eth.tx.to == '" + TREASURY + "'",
                    "CronSpan('0 9 * * 1-5', '8h', 'America/New_York')"
                };
            case 15 ->
                new String[] {
                    "approvers.any(user, user.tags.contains('tag-security') || "
                            + "user.tags.contains('tag-ops')) && (approvers.filter(user, user.tags.contains('tag-security'))"
                            + ".count() >= 1 && approvers.filter(user, user.tags.contains('tag-ops')).count() >= 2)",
                    "activity.resource == 'POLICY' && (activity.action == 'CREATE' || activity.action == 'UPDATE' || "
                            + "activity.action == 'DELETE')",
                    null
                };
            case 16 ->
                new String[] {
                    null,
                    "eth.tx.function_name == 'transfer' && eth.tx.contract_call_args['to'] in "
                            + "['0x1111111111111111111111111111111111111111', '" + SIGNER + "', '" + TREASURY + "']",
                    null
                };
            case 17 ->
                new String[] {
                    null,
                    "activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2' && "
                            + "activity.params.hash_function == 'HASH_FUNCTION_NO_OP' && "
                            + "activity.params.encoding != 'PAYLOAD_ENCODING_EIP712'",
                    null
                };
            case 18 ->
                new String[] {byUser, "wallet.label == 'treasury' && wallet_account.address == '" + SIGNER + "'", null};
            default ->
                new String[] {
                    "credentials.any(credential, credential.public_key == '02a1b2c3d4')",
                    "activity.action == 'SIGN' && activity.params.type == 'TRANSACTION_TYPE_ETHEREUM'",
                    null
                };
        };
    }

    /** An ERC-20 transfer from the treasury wallet, approved by 3 users, on a Tuesday at 10:00 in New York. */
    private static Environment signTransactionFromWallet() {
        return Environment.of(Map.of(
                "approvers",
                        Value.list(
                                user("user-0", "tag-ops", "tag-security"),
                                user("user-1", "tag-ops"),
                                user("user-2", "tag-finance")),
                "credentials",
                        Value.list(
                                credential("cred-0", "user-0", "CREDENTIAL_TYPE_API_KEY_P256", "03ffee0011"),
                                credential("cred-1", "user-1", "CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR", "02a1b2c3d4"),
                                credential("cred-2", "user-2", "CREDENTIAL_TYPE_API_KEY_SECP256K1", "02beef0022")),
                "activity",
                        Value.struct(Map.of(
                                "type",
                                Value.of("ACTIVITY_TYPE_SIGN_TRANSACTION_V2"),
                                "kind",
                                Value.of("SIGN_TRANSACTION"),
                                "resource",
                                Value.of("PRIVATE_KEY"),
                                "action",
                                Value.of("SIGN"),
                                "params",
                                Value.struct(Map.of("type", Value.of("TRANSACTION_TYPE_ETHEREUM"))))),
                "wallet",
                        Value.struct(Map.of(
                                "id",
                                Value.of("wallet-0"),
                                "imported",
                                Value.of(false),
                                "exported",
                                Value.of(false),
                                "label",
                                Value.of("treasury"))),
                "wallet_account", Value.struct(Map.of("address", Value.of(SIGNER))),
                "eth", Value.struct(Map.of("tx", ethereumTransfer())),
                "time", Value.struct(Map.of("now", Value.of(Instant.parse("2026-03-10T14:00:00Z"))))));
    }

    private static Value ethereumTransfer() {
        String calldata = "0xa9059cbb000000000000000000000000" + SIGNER.substring(2)
                + "0000000000000000000000000000000000000000000000000de0b6b3a7640000";
        return Value.struct(Map.ofEntries(
                Map.entry("from", Value.of(SIGNER)),
                Map.entry("to", Value.of(TREASURY)),
                Map.entry("data", Value.of(calldata)),
                Map.entry("value", Value.of(0)),
                Map.entry("gas", Value.of(65_000)),
                Map.entry("chain_id", Value.of(1)),
                Map.entry("nonce", Value.of(42)),
                Map.entry("type", Value.of(2)),
                Map.entry("max_fee_per_gas", Value.of(new BigInteger("30000000000"))),
                Map.entry("function_name", Value.of("transfer")),
                Map.entry("function_signature", Value.of("0xa9059cbb")),
                Map.entry(
                        "contract_call_args",
                        Value.struct(Map.of(
                                "to", Value.of(SIGNER), "value", Value.of(new BigInteger("1000000000000000000")))))));
    }

    private static Value user(String id, String... tags) {
        return Value.struct(Map.of(
                "id",
                Value.of(id),
                "tags",
                Value.strings(List.of(tags)),
                "email",
                Value.of(id + "@example.com"),
                "alias",
                Value.of(id)));
    }

    private static Value credential(String id, String userId, String type, String publicKey) {
        return Value.struct(Map.of(
                "id",
                Value.of(id),
                "user_id",
                Value.of(userId),
                "type",
                Value.of(type),
                "public_key",
                Value.of(publicKey)));
    }
}
