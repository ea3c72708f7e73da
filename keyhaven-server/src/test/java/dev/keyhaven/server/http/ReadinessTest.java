package dev.keyhaven.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** How often {@link Readiness} asks the database, on a clock the test moves. */
class ReadinessTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final AtomicInteger checks = new AtomicInteger();
    private final AtomicBoolean answers = new AtomicBoolean(true);

    private boolean check() {
        checks.incrementAndGet();
        return answers.get();
    }

    @Test
    void anAnswerIsKeptForASecondThenAskedAgain() {
        Readiness readiness = new Readiness(this::check, now::get);
        for (int i = 0; i < 50; i++) {
            assertThat(readiness.databaseAnswers()).isTrue();
        }
        assertThat(checks).as("one check for many probes").hasValue(1);
        answers.set(false);
        now.addAndGet(Readiness.FRESH_FOR.toNanos());
        assertThat(readiness.databaseAnswers())
                .as("still fresh at exactly a second")
                .isTrue();
        now.incrementAndGet();
        assertThat(readiness.databaseAnswers()).isFalse();
        assertThat(checks).hasValue(2);
    }

    @Test
    void aCheckThatHangsIsUnreachableAndNotRepeatedMeanwhile() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Readiness readiness = new Readiness(
                () -> {
                    checks.incrementAndGet();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return true;
                },
                now::get);
        assertThat(readiness.databaseAnswers()).as("no answer within the wait").isFalse();
        now.addAndGet(Readiness.FRESH_FOR.toNanos() * 10);
        assertThat(readiness.databaseAnswers()).isFalse();
        assertThat(checks).as("the hanging check is the only one").hasValue(1);
        release.countDown();
        assertThat(readiness.databaseAnswers()).as("its late answer counts").isTrue();
        assertThat(checks).hasValue(1);
    }
}
