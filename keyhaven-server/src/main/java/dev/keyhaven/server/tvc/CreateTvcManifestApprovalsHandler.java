package dev.keyhaven.server.tvc;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code create_tvc_manifest_approvals}: operators' approvals of a deployment's manifest, each a signature over the
 * manifest hash. Every approval is checked before any is recorded (the activity records all or none): the operator
 * exists, belongs to the deployment's manifest set, has not approved this manifest (in this request or before) and
 * signed the manifest hash. The only submit operation that does not accept {@code generateAppProofs: true}.
 */
final class CreateTvcManifestApprovalsHandler implements ActivityHandler<CreateTvcManifestApprovalsHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
                    "create_tvc_manifest_approvals",
                    ActivityResource.TVC_DEPLOYMENT,
                    ActivityAction.UPDATE,
                    new ActivityVersion(
                            ActivityType.CREATE_TVC_MANIFEST_APPROVALS,
                            "createTvcManifestApprovalsIntent",
                            "createTvcManifestApprovalsResult"))
            .withoutAppProofs();

    private final TvcRepository repository;

    public CreateTvcManifestApprovalsHandler(TvcRepository repository) {
        this.repository = repository;
    }

    /** One approval as submitted. */
    public record Approval(String operatorId, String signature) {}

    /** The validated intent. */
    public record Intent(String manifestId, List<Approval> approvals) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        List<Approval> approvals = p.requiredObjects(
                "approvals", a -> new Approval(a.requiredString("operatorId"), a.requiredString("signature")));
        if (approvals.isEmpty()) {
            throw ApiException.badField(p.pathOf("approvals"), "must hold at least one approval");
        }
        return new Intent(p.requiredString("manifestId"), approvals);
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        String org = context.organizationId();
        TvcDeployment deployment = repository
                .findDeploymentByManifest(context.tx(), org, intent.manifestId())
                .orElseThrow(() -> ApiException.notFound("no TVC manifest found with id " + intent.manifestId()));
        OperatorSet manifestSet = repository
                .findApp(context.tx(), org, deployment.appId())
                .orElseThrow()
                .manifestSet();
        Set<String> approved = new HashSet<>();
        repository
                .approvals(context.tx(), deployment.manifestId())
                .forEach(a -> approved.add(a.operator().id()));
        List<ManifestApproval> accepted = new ArrayList<>();
        for (int i = 0; i < intent.approvals().size(); i++) {
            Approval approval = intent.approvals().get(i);
            String label = "approvals[" + i + "] (operator " + approval.operatorId() + ")";
            TvcOperator operator = repository
                    .findOperator(context.tx(), org, approval.operatorId())
                    .orElseThrow(() -> ApiException.badRequest(label + ": no TVC operator found with this id"));
            if (!manifestSet.contains(operator.id())) {
                throw ApiException.badRequest(
                        label + ": the operator is not in the manifest set of deployment " + deployment.id());
            }
            if (!approved.add(operator.id())) {
                throw ApiException.badRequest(
                        label + ": the operator has already approved manifest " + deployment.manifestId());
            }
            if (!OperatorKeys.approves(operator.publicKey(), deployment.manifestHash(), approval.signature())) {
                throw ApiException.badRequest(label + ": the signature does not verify over the manifest hash with "
                        + "the operator's public key");
            }
            accepted.add(new ManifestApproval(
                    context.ids().next(), deployment.manifestId(), operator, approval.signature(), context.now()));
        }
        accepted.forEach(a -> repository.insertApproval(context.tx(), a));
        return new Result(accepted.stream().map(ManifestApproval::id).toList());
    }

    /** {@code createTvcManifestApprovalsResult}. */
    public record Result(List<String> approvalIds) {}
}
