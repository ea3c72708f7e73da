package dev.keyhaven.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** One compiled expression, as the server caches it, evaluated from several threads against different activities. */
class ConcurrentEvaluationTest {

    @Test
    void evaluationsOfOneExpressionDoNotShareState() throws Exception {
        PolicyExpression consensus = PolicyExpression.parse(
                "approvers.filter(u, u.tags.any(t, t == 'ops')).count() >= 2 && approvers.all(u, u.id != 'banned')");
        Environment twoOps = approvers(user("a", "ops"), user("b", "dev", "ops"), user("c"));
        Environment oneOps = approvers(user("a", "ops"), user("b", "dev"), user("c", "dev"));
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<?>> runs = new ArrayList<>();
            for (int thread = 0; thread < 4; thread++) {
                runs.add(pool.submit(() -> {
                    for (int i = 0; i < 5_000; i++) {
                        assertThat(consensus.evaluate(twoOps)).isEqualTo(EvaluationResult.Decided.TRUE);
                        assertThat(consensus.evaluate(oneOps)).isEqualTo(EvaluationResult.Decided.FALSE);
                    }
                }));
            }
            for (Future<?> run : runs) {
                run.get();
            }
        }
    }

    private static Environment approvers(Value... users) {
        return Environment.of(Map.of("approvers", Value.list(users)));
    }

    private static Value user(String id, String... tags) {
        return Value.struct(Map.of("id", Value.of(id), "tags", Value.strings(List.of(tags))));
    }
}
