package dev.keyhaven.server.tvc;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.api.WireTime;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.Tx;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The read side of TVC: get_tvc_app, list_tvc_apps, get_tvc_deployment, list_tvc_app_deployments, in Turnkey's shapes
 * ({@code v1TvcApp}, {@code v1TvcDeployment}). A deployment also reports {@code manifestHash} (hex, what operators
 * sign), {@code approvalCount}, {@code approvalThreshold} (its manifest set's) and {@code approved} (count ≥
 * threshold).
 */
public final class TvcQueries {
    private final Transactor transactor;
    private final TvcRepository repository;
    private final ObjectMapper json;

    public TvcQueries(Transactor transactor, TvcRepository repository, ObjectMapper json) {
        this.transactor = transactor;
        this.repository = repository;
        this.json = json;
    }

    /** {@code get_tvc_app {organizationId, tvcAppId}} → {@code {tvcApp}}. */
    public ObjectNode getTvcApp(Caller caller, Params body) {
        String appId = body.requiredString("tvcAppId");
        TvcApp app = transactor.read(tx -> app(tx, caller, appId));
        ObjectNode out = json.createObjectNode();
        out.set("tvcApp", app(app));
        return out;
    }

    /** {@code list_tvc_apps {organizationId}} → {@code {tvcApps}}, oldest first. */
    public ObjectNode listTvcApps(Caller caller, Params body) {
        List<TvcApp> apps = transactor.read(tx -> repository.listApps(tx, caller.organizationId()));
        ObjectNode out = json.createObjectNode();
        ArrayNode list = out.putArray("tvcApps");
        apps.forEach(a -> list.add(app(a)));
        return out;
    }

    /** {@code get_tvc_deployment {organizationId, deploymentId}} → {@code {tvcDeployment}}. */
    public ObjectNode getTvcDeployment(Caller caller, Params body) {
        String deploymentId = body.requiredString("deploymentId");
        ObjectNode out = json.createObjectNode();
        out.set("tvcDeployment", transactor.read(tx -> {
            TvcDeployment deployment = repository
                    .findDeployment(tx, caller.organizationId(), deploymentId)
                    .orElseThrow(() -> ApiException.notFound("no TVC deployment found with id " + deploymentId));
            return deployment(tx, app(tx, caller, deployment.appId()), deployment);
        }));
        return out;
    }

    /** {@code list_tvc_app_deployments {organizationId, appId}} → {@code {tvcDeployments}}, oldest first. */
    public ObjectNode listTvcAppDeployments(Caller caller, Params body) {
        String appId = body.requiredString("appId");
        ObjectNode out = json.createObjectNode();
        out.set("tvcDeployments", transactor.read(tx -> {
            TvcApp app = app(tx, caller, appId);
            ArrayNode list = json.createArrayNode();
            repository
                    .listDeployments(tx, caller.organizationId(), appId)
                    .forEach(d -> list.add(deployment(tx, app, d)));
            return list;
        }));
        return out;
    }

    private TvcApp app(Tx tx, Caller caller, String appId) {
        return repository
                .findApp(tx, caller.organizationId(), appId)
                .orElseThrow(() -> ApiException.notFound("no TVC app found with id " + appId));
    }

    private ObjectNode app(TvcApp app) {
        ObjectNode out = json.createObjectNode();
        out.put("id", app.id());
        out.put("organizationId", app.organizationId());
        out.put("name", app.name());
        out.put("quorumPublicKey", app.quorumPublicKey());
        out.set("manifestSet", set(app.manifestSet()));
        out.set("shareSet", set(app.shareSet()));
        out.put("enableEgress", app.enableEgress());
        times(out, app.createdAt(), app.updatedAt());
        out.put("publicDomain", "");
        out.put("enableDebugModeDeployments", app.enableDebugModeDeployments());
        return out;
    }

    private ObjectNode deployment(Tx tx, TvcApp app, TvcDeployment d) {
        List<ManifestApproval> approvals = repository.approvals(tx, d.manifestId());
        ObjectNode out = json.createObjectNode();
        out.put("id", d.id());
        out.put("organizationId", d.organizationId());
        out.put("appId", d.appId());
        out.set("manifestSet", set(app.manifestSet()));
        out.set("shareSet", set(app.shareSet()));
        ObjectNode manifest = out.putObject("manifest");
        manifest.put("id", d.manifestId());
        manifest.put("manifest", Base64.getEncoder().encodeToString(d.manifest().getBytes(StandardCharsets.UTF_8)));
        times(manifest, d.createdAt(), d.updatedAt());
        ArrayNode list = out.putArray("manifestApprovals");
        for (ManifestApproval a : approvals) {
            ObjectNode approval = list.addObject();
            approval.put("id", a.id());
            approval.put("manifestId", a.manifestId());
            approval.set("operator", operator(a.operator()));
            approval.put("approval", a.signature());
            times(approval, a.createdAt(), a.createdAt());
        }
        out.put("qosVersion", d.qosVersion());
        out.set("pivotContainer", json.readTree(d.pivotContainer()));
        times(out, d.createdAt(), d.updatedAt());
        out.put("delete", false);
        out.put("debugMode", d.debugMode());
        out.put("manifestHash", d.manifestHash());
        out.put("approvalCount", approvals.size());
        out.put("approvalThreshold", app.manifestSet().threshold());
        out.put("approved", approvals.size() >= app.manifestSet().threshold());
        return out;
    }

    private ObjectNode set(OperatorSet set) {
        ObjectNode out = json.createObjectNode();
        out.put("id", set.id());
        out.put("name", set.name());
        out.put("organizationId", set.organizationId());
        ArrayNode operators = out.putArray("operators");
        set.operators().forEach(o -> operators.add(operator(o)));
        out.put("threshold", set.threshold());
        times(out, set.createdAt(), set.updatedAt());
        return out;
    }

    private ObjectNode operator(TvcOperator operator) {
        ObjectNode out = json.createObjectNode();
        out.put("id", operator.id());
        out.put("name", operator.name());
        out.put("publicKey", operator.publicKey());
        times(out, operator.createdAt(), operator.updatedAt());
        return out;
    }

    private void times(ObjectNode out, Instant createdAt, Instant updatedAt) {
        out.set("createdAt", json.valueToTree(WireTime.of(createdAt)));
        out.set("updatedAt", json.valueToTree(WireTime.of(updatedAt)));
    }
}
