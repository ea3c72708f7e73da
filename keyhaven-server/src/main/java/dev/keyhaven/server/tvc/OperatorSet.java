package dev.keyhaven.server.tvc;

import java.time.Instant;
import java.util.List;

/** A set of operators of which {@code threshold} must agree (a manifest set approves manifests). */
public record OperatorSet(
        String id,
        String organizationId,
        String name,
        int threshold,
        List<TvcOperator> operators,
        Instant createdAt,
        Instant updatedAt) {

    public OperatorSet {
        operators = List.copyOf(operators);
    }

    public boolean contains(String operatorId) {
        return operators.stream().anyMatch(o -> o.id().equals(operatorId));
    }
}
