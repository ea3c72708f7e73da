package dev.keyhaven.server.tvc;

import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Creates operators and operator sets inside an activity; shared by create_tvc_operator and create_tvc_app. */
public final class TvcOperators {
    private final TvcRepository repository;

    public TvcOperators(TvcRepository repository) {
        this.repository = repository;
    }

    /** A new operator's name and public key (validated: a P-256 key). */
    public record NewOperator(String name, String publicKey, String field) {
        static NewOperator read(Params p, String nameField) {
            String name = p.requiredString(nameField);
            String key = p.requiredString("publicKey").toLowerCase(Locale.ROOT);
            OperatorKeys.parse(key, p.pathOf("publicKey"));
            return new NewOperator(name, key, p.pathOf(nameField));
        }
    }

    /** {@code v1TvcOperatorSetParams}: new operators and existing ones, and the threshold. */
    public record NewSet(
            String name,
            List<NewOperator> newOperators,
            List<String> existingOperatorIds,
            int threshold,
            String field) {
        static NewSet read(Params p) {
            String name = p.requiredString("name");
            List<NewOperator> fresh = p.has("newOperators")
                    ? p.requiredObjects("newOperators", o -> NewOperator.read(o, "name"))
                    : List.of();
            List<String> existing = p.optionalStrings("existingOperatorIds");
            int size = fresh.size() + existing.size();
            if (size == 0) {
                throw ApiException.badField(
                        p.path(), "needs at least one operator (newOperators or " + "existingOperatorIds)");
            }
            if (new HashSet<>(existing).size() != existing.size()) {
                throw ApiException.badField(p.pathOf("existingOperatorIds"), "names an operator twice");
            }
            int threshold = p.requiredInt("threshold");
            if (threshold < 1 || threshold > size) {
                throw ApiException.badField(
                        p.pathOf("threshold"), "must be between 1 and the number of operators (" + size + ")");
            }
            return new NewSet(name, fresh, existing, threshold, p.path());
        }
    }

    TvcOperator create(ActivityContext context, NewOperator operator) {
        if (repository.operatorNameTaken(context.tx(), context.organizationId(), operator.name())) {
            throw ApiException.badRequest(
                    operator.field() + ": a TVC operator named '" + operator.name() + "' already exists");
        }
        TvcOperator created = new TvcOperator(
                context.ids().next(),
                context.organizationId(),
                operator.name(),
                operator.publicKey(),
                context.now(),
                context.now());
        repository.insertOperator(context.tx(), created);
        return created;
    }

    /** Creates the set's new operators and the set; the existing operators must belong to the organization. */
    OperatorSet createSet(ActivityContext context, NewSet set) {
        Set<String> names = new HashSet<>();
        LinkedHashSet<TvcOperator> members = new LinkedHashSet<>();
        for (int i = 0; i < set.existingOperatorIds().size(); i++) {
            String id = set.existingOperatorIds().get(i);
            members.add(repository
                    .findOperator(context.tx(), context.organizationId(), id)
                    .orElseThrow(() -> ApiException.notFound("no TVC operator found with id " + id)));
        }
        for (NewOperator operator : set.newOperators()) {
            if (!names.add(operator.name())) {
                throw ApiException.badRequest(
                        operator.field() + ": a TVC operator named '" + operator.name() + "' already exists");
            }
            members.add(create(context, operator));
        }
        OperatorSet created = new OperatorSet(
                context.ids().next(),
                context.organizationId(),
                set.name(),
                set.threshold(),
                new ArrayList<>(members),
                context.now(),
                context.now());
        repository.insertOperatorSet(context.tx(), created);
        return created;
    }
}
