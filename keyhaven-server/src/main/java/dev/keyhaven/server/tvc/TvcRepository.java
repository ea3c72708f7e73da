package dev.keyhaven.server.tvc;

import dev.keyhaven.server.tx.Tx;
import java.util.List;
import java.util.Optional;

/** Storage of TVC operators, operator sets, apps, deployments and manifest approvals. */
public interface TvcRepository {

    void insertOperator(Tx tx, TvcOperator operator);

    Optional<TvcOperator> findOperator(Tx tx, String organizationId, String operatorId);

    boolean operatorNameTaken(Tx tx, String organizationId, String name);

    /** Inserts the set and its members (in order). */
    void insertOperatorSet(Tx tx, OperatorSet set);

    Optional<OperatorSet> findOperatorSet(Tx tx, String organizationId, String setId);

    void insertApp(Tx tx, TvcApp app);

    Optional<TvcApp> findApp(Tx tx, String organizationId, String appId);

    boolean appNameTaken(Tx tx, String organizationId, String name);

    /** The organization's apps, oldest first. */
    List<TvcApp> listApps(Tx tx, String organizationId);

    void insertDeployment(Tx tx, TvcDeployment deployment);

    Optional<TvcDeployment> findDeployment(Tx tx, String organizationId, String deploymentId);

    Optional<TvcDeployment> findDeploymentByManifest(Tx tx, String organizationId, String manifestId);

    /** The app's deployments, oldest first. */
    List<TvcDeployment> listDeployments(Tx tx, String organizationId, String appId);

    /**
     * Records an approval.
     *
     * @throws dev.keyhaven.server.tx.Transactor.ConstraintViolation when the operator approved the manifest already
     */
    void insertApproval(Tx tx, ManifestApproval approval);

    /** The manifest's approvals, oldest first. */
    List<ManifestApproval> approvals(Tx tx, String manifestId);
}
