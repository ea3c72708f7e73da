package dev.keyhaven.server.tvc;

import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.tx.Transactor;
import java.util.List;
import tools.jackson.databind.ObjectMapper;

/** TVC assembled: operators, apps, deployments and manifest approvals, and the queries that read them. */
public final class TvcFeature {
    private final TvcQueries queries;
    private final List<ActivityHandler<?>> handlers;

    public TvcFeature(Transactor transactor, TvcRepository tvc, ObjectMapper json) {
        TvcOperators operators = new TvcOperators(tvc);
        this.queries = new TvcQueries(transactor, tvc, json);
        this.handlers = List.of(
                new CreateTvcOperatorHandler(operators),
                new CreateTvcAppHandler(tvc, operators),
                new CreateTvcDeploymentHandler(tvc, json),
                new CreateTvcManifestApprovalsHandler(tvc));
    }

    public List<ActivityHandler<?>> handlers() {
        return handlers;
    }

    public TvcQueries queries() {
        return queries;
    }
}
