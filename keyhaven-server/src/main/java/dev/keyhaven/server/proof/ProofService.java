package dev.keyhaven.server.proof;

import dev.keyhaven.policy.engine.Outcome;
import dev.keyhaven.policy.engine.PolicyOutcome;
import dev.keyhaven.server.activity.Activity;
import dev.keyhaven.server.activity.ActivityRenderer;
import dev.keyhaven.server.activity.ActivityRepository;
import dev.keyhaven.server.activity.AppProof;
import dev.keyhaven.server.activity.AppProver;
import dev.keyhaven.server.activity.CreatedAddress;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.api.WireTime;
import dev.keyhaven.server.custody.EphemeralKey;
import dev.keyhaven.server.custody.ServerIdentity;
import dev.keyhaven.server.tx.Transactor;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Signs app proofs with this start's ephemeral key, and answers list_app_proofs, get_boot_proof and
 * get_latest_boot_proof.
 *
 * <p>Proof payloads (JSON text, signed as UTF-8): {@code {"type":"APP_PROOF_TYPE_ADDRESS_DERIVATION","timestampMs",
 * "addressDerivationProof":{"organizationId","walletId","derivationPath","address"}}} (a private key's address has
 * {@code privateKeyId} instead of the wallet and path) and {@code {"type":"APP_PROOF_TYPE_POLICY_OUTCOME",
 * "timestampMs","policyOutcomeProof":{"organizationId","activityId","activityType","fingerprint","status","outcome",
 * "policyOutcomes":[{"policyId","outcome"}]}}}.
 *
 * <p>The boot statement: {@code {"type":"KEYHAVEN_BOOT_STATEMENT_V1","ephemeralPublicKey","startedAtMs",
 * "buildVersion","identityPublicKey"}}.
 */
public final class ProofService implements AppProver, AutoCloseable {
    /** What {@code enclaveApp}, {@code owner} and {@code qosManifestVersion} of a boot proof say. */
    public static final String APP_NAME = "keyhaven";

    static final String STATEMENT_VERSION = "KEYHAVEN_BOOT_STATEMENT_V1";

    private final Transactor transactor;
    private final BootProofRepository bootProofs;
    private final ActivityRepository activities;
    private final ActivityRenderer renderer;
    private final EphemeralKey ephemeralKey;
    private final ObjectMapper json;
    private final BootProof current;

    private ProofService(
            Transactor transactor,
            BootProofRepository bootProofs,
            ActivityRepository activities,
            ActivityRenderer renderer,
            EphemeralKey ephemeralKey,
            ObjectMapper json,
            BootProof current) {
        this.transactor = transactor;
        this.bootProofs = bootProofs;
        this.activities = activities;
        this.renderer = renderer;
        this.ephemeralKey = ephemeralKey;
        this.json = json;
        this.current = current;
    }

    /** Signs and records the boot proof of this start, binding {@code ephemeralKey} to {@code identity}. */
    public static ProofService start(
            Transactor transactor,
            BootProofRepository bootProofs,
            ActivityRepository activities,
            ActivityRenderer renderer,
            ServerIdentity identity,
            EphemeralKey ephemeralKey,
            String buildVersion,
            Instant startedAt,
            ObjectMapper json) {
        ObjectNode statement = json.createObjectNode();
        statement.put("type", STATEMENT_VERSION);
        statement.put("ephemeralPublicKey", ephemeralKey.publicKeyHex());
        statement.put("startedAtMs", Long.toString(startedAt.toEpochMilli()));
        statement.put("buildVersion", buildVersion);
        statement.put("identityPublicKey", identity.publicKeyHex());
        String text = json.writeValueAsString(statement);
        BootProof proof = new BootProof(
                ephemeralKey.publicKeyHex(),
                text,
                identity.publicKeyHex(),
                HexFormat.of().formatHex(identity.sign(text.getBytes(StandardCharsets.UTF_8))),
                startedAt);
        transactor.write(tx -> {
            bootProofs.insert(tx, proof);
            return null;
        });
        return new ProofService(transactor, bootProofs, activities, renderer, ephemeralKey, json, proof);
    }

    /** Wipes the ephemeral key: after this, no proof of this start can be made. */
    @Override
    public void close() {
        ephemeralKey.close();
    }

    /** The long-term public key (hex, uncompressed) that verifiers pin. */
    public String identityPublicKey() {
        return current.identityPublicKey();
    }

    @Override
    public List<AppProof> prove(
            Activity decided, List<PolicyOutcome> policies, Outcome overall, List<CreatedAddress> addresses) {
        String timestampMs = Long.toString(decided.updatedAt().toEpochMilli());
        List<AppProof> proofs = new ArrayList<>(1 + addresses.size());
        ObjectNode outcome = json.createObjectNode();
        outcome.put("organizationId", decided.organizationId());
        outcome.put("activityId", decided.id());
        outcome.put("activityType", decided.type().wireName());
        outcome.put("fingerprint", decided.fingerprint());
        outcome.put("status", decided.status().wireName());
        outcome.put("outcome", "OUTCOME_" + overall.name());
        ArrayNode outcomes = outcome.putArray("policyOutcomes");
        policies.forEach(p -> outcomes.addObject()
                .put("policyId", p.policyId())
                .put("outcome", "OUTCOME_" + p.outcome().name()));
        proofs.add(sign("APP_PROOF_TYPE_POLICY_OUTCOME", timestampMs, "policyOutcomeProof", outcome));
        for (CreatedAddress address : addresses) {
            ObjectNode derivation = json.createObjectNode();
            derivation.put("organizationId", address.organizationId());
            address.walletId().ifPresent(id -> derivation.put("walletId", id));
            address.privateKeyId().ifPresent(id -> derivation.put("privateKeyId", id));
            address.derivationPath().ifPresent(path -> derivation.put("derivationPath", path));
            derivation.put("address", address.address());
            proofs.add(sign("APP_PROOF_TYPE_ADDRESS_DERIVATION", timestampMs, "addressDerivationProof", derivation));
        }
        return proofs;
    }

    /** {@code {"type", "timestampMs", bodyKey: body}} as JSON text, signed with the ephemeral key. */
    private AppProof sign(String type, String timestampMs, String bodyKey, ObjectNode body) {
        ObjectNode root = json.createObjectNode();
        root.put("type", type);
        root.put("timestampMs", timestampMs);
        root.set(bodyKey, body);
        String payload = json.writeValueAsString(root);
        return new AppProof(
                AppProof.EPHEMERAL_KEY_P256,
                ephemeralKey.publicKeyHex(),
                payload,
                HexFormat.of().formatHex(ephemeralKey.sign(payload.getBytes(StandardCharsets.UTF_8))));
    }

    /** {@code list_app_proofs {organizationId, activityId}} → {@code {appProofs}}; 404 for an unknown activity. */
    public ObjectNode listAppProofs(Caller caller, Params body) {
        String activityId = body.requiredString("activityId");
        Activity activity = transactor
                .read(tx -> activities.find(tx, caller.organizationId(), activityId))
                .orElseThrow(() -> ApiException.notFound(
                        "no activity found with id " + activityId + " in organization " + caller.organizationId()));
        ObjectNode out = json.createObjectNode();
        out.set("appProofs", renderer.appProofs(activity.appProofs()));
        return out;
    }

    /** {@code get_boot_proof {organizationId, ephemeralKey}} → {@code {bootProof}}; 404 for a key never used. */
    public ObjectNode getBootProof(Caller caller, Params body) {
        String key = body.requiredString("ephemeralKey");
        BootProof proof = transactor
                .read(tx -> bootProofs.findByEphemeralKey(tx, key.toLowerCase(Locale.ROOT)))
                .orElseThrow(() -> ApiException.notFound("no boot proof found for ephemeral key " + abbreviate(key)));
        return response(proof);
    }

    /**
     * {@code get_latest_boot_proof {organizationId, appName}} → {@code {bootProof}}: the boot proof of the key this
     * server signs with now. Keyhaven is one app, so any {@code appName} names it.
     */
    public ObjectNode getLatestBootProof(Caller caller, Params body) {
        body.requiredString("appName");
        return response(current);
    }

    private ObjectNode response(BootProof proof) {
        ObjectNode out = json.createObjectNode();
        ObjectNode boot = out.putObject("bootProof");
        boot.put("ephemeralPublicKeyHex", proof.ephemeralPublicKey());
        boot.put("awsAttestationDocB64", "");
        boot.put(
                "qosManifestB64",
                Base64.getEncoder().encodeToString(proof.statement().getBytes(StandardCharsets.UTF_8)));
        boot.put("qosManifestEnvelopeB64", "");
        boot.put(
                "deploymentLabel",
                json.readTree(proof.statement()).path("buildVersion").asString());
        boot.put("enclaveApp", APP_NAME);
        boot.put("owner", APP_NAME);
        boot.set("createdAt", json.valueToTree(WireTime.of(proof.createdAt())));
        boot.put("qosManifestVersion", STATEMENT_VERSION);
        boot.put("bootStatement", proof.statement());
        boot.put("identityPublicKey", proof.identityPublicKey());
        boot.put("signature", proof.signature());
        return out;
    }

    private static String abbreviate(String value) {
        return value.length() <= 24 ? value : value.substring(0, 24) + "…";
    }
}
