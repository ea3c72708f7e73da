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
import java.util.List;
import java.util.Optional;

/**
 * {@code create_tvc_app}: an app with its quorum public key, a manifest set and a share set, each an existing operator
 * set ({@code manifestSetId}) or a new one ({@code manifestSetParams}), exactly one of the two.
 */
final class CreateTvcAppHandler implements ActivityHandler<CreateTvcAppHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "create_tvc_app",
            ActivityResource.TVC_APP,
            ActivityAction.CREATE,
            new ActivityVersion(ActivityType.CREATE_TVC_APP, "createTvcAppIntent", "createTvcAppResult"));

    private final TvcRepository repository;
    private final TvcOperators operators;

    public CreateTvcAppHandler(TvcRepository repository, TvcOperators operators) {
        this.repository = repository;
        this.operators = operators;
    }

    /** An operator set to use: an existing one or one to create. */
    public record SetChoice(Optional<String> existingId, Optional<TvcOperators.NewSet> params) {
        static SetChoice read(Params p, String prefix) {
            Optional<String> id = p.optionalString(prefix + "Id");
            Optional<Params> params = p.optionalObject(prefix + "Params");
            if (id.isPresent() == params.isPresent()) {
                throw ApiException.badField(p.pathOf(prefix + "Id"), "or " + prefix + "Params is required, not both");
            }
            return new SetChoice(id, params.map(TvcOperators.NewSet::read));
        }
    }

    /** The validated intent. */
    public record Intent(
            String name,
            String quorumPublicKey,
            SetChoice manifestSet,
            SetChoice shareSet,
            boolean enableEgress,
            boolean enableDebugModeDeployments) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        return new Intent(
                p.requiredString("name"),
                p.requiredString("quorumPublicKey"),
                SetChoice.read(p, "manifestSet"),
                SetChoice.read(p, "shareSet"),
                p.optionalBoolean("enableEgress", false),
                p.optionalBoolean("enableDebugModeDeployments", false));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        if (repository.appNameTaken(context.tx(), context.organizationId(), intent.name())) {
            throw ApiException.badRequest("a TVC app named '" + intent.name() + "' already exists");
        }
        OperatorSet manifestSet = set(context, intent.manifestSet());
        OperatorSet shareSet = set(context, intent.shareSet());
        TvcApp app = new TvcApp(
                context.ids().next(),
                context.organizationId(),
                intent.name(),
                intent.quorumPublicKey(),
                manifestSet,
                shareSet,
                intent.enableEgress(),
                intent.enableDebugModeDeployments(),
                context.now(),
                context.now());
        repository.insertApp(context.tx(), app);
        return new Result(
                app.id(),
                manifestSet.id(),
                ids(manifestSet),
                manifestSet.threshold(),
                shareSet.id(),
                ids(shareSet),
                shareSet.threshold());
    }

    private OperatorSet set(ActivityContext context, SetChoice choice) {
        if (choice.existingId().isPresent()) {
            String id = choice.existingId().get();
            return repository
                    .findOperatorSet(context.tx(), context.organizationId(), id)
                    .orElseThrow(() -> ApiException.notFound("no TVC operator set found with id " + id));
        }
        return operators.createSet(context, choice.params().orElseThrow());
    }

    private static List<String> ids(OperatorSet set) {
        return set.operators().stream().map(TvcOperator::id).toList();
    }

    /** {@code createTvcAppResult}. */
    public record Result(
            String appId,
            String manifestSetId,
            List<String> manifestSetOperatorIds,
            int manifestSetThreshold,
            String shareSetId,
            List<String> shareSetOperatorIds,
            int shareSetThreshold) {}
}
