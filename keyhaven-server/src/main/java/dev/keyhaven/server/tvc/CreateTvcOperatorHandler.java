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

/**
 * {@code create_tvc_operator}: an operator with its own P-256 public key ({@code {operatorName, publicKey}});
 * result {@code {operatorId}}. Turnkey's newer form, an operator backed by a wallet of the organization
 * ({@code walletName}/{@code walletId} and {@code path}), is not supported.
 */
final class CreateTvcOperatorHandler implements ActivityHandler<CreateTvcOperatorHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "create_tvc_operator",
            ActivityResource.TVC_OPERATOR,
            ActivityAction.CREATE,
            new ActivityVersion(
                    ActivityType.CREATE_TVC_OPERATOR, "createTvcOperatorIntent", "createTvcOperatorResult"));

    private final TvcOperators operators;

    public CreateTvcOperatorHandler(TvcOperators operators) {
        this.operators = operators;
    }

    /** The validated intent. */
    public record Intent(TvcOperators.NewOperator operator) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params parameters) {
        if (!parameters.has("publicKey") && (parameters.has("walletId") || parameters.has("walletName"))) {
            throw ApiException.badField(
                    parameters.pathOf("publicKey"),
                    "is required: operators backed by a wallet "
                            + "(walletId, walletName, path) are not supported; register the operator's P-256 public key");
        }
        return new Intent(TvcOperators.NewOperator.read(parameters, "operatorName"));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        return new Result(operators.create(context, intent.operator()).id());
    }

    /** {@code createTvcOperatorResult}. */
    public record Result(String operatorId) {}
}
