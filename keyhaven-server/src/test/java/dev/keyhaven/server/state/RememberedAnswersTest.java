package dev.keyhaven.server.state;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RememberedAnswersTest {
    private static RememberedAnswers.Label label(long version, String lookup) {
        return new RememberedAnswers.Label("org", version, lookup);
    }

    @Test
    void anAnswerIsFoundOnlyUnderItsOwnVersion() {
        RememberedAnswers answers = new RememberedAnswers(1_000);
        answers.put(label(1, "page"), new byte[10]);
        assertThat(answers.get(label(1, "page"))).hasSize(10);
        assertThat(answers.get(label(2, "page"))).isNull();
        assertThat(answers.get(label(1, "other page"))).isNull();
    }

    @Test
    void theLeastRecentlyUsedAnswersMakeRoomWithinTheBudget() {
        RememberedAnswers answers = new RememberedAnswers(1_000);
        for (int i = 0; i < 10; i++) {
            answers.put(label(1, "page " + i), new byte[100]);
        }
        answers.get(label(1, "page 0"));
        answers.put(label(1, "page 10"), new byte[100]);
        assertThat(answers.bytes()).isEqualTo(1_000);
        assertThat(answers.get(label(1, "page 0"))).isNotNull();
        assertThat(answers.get(label(1, "page 1"))).isNull();
        assertThat(answers.get(label(1, "page 10"))).isNotNull();
    }

    @Test
    void anAnswerTooLargeForItsShareOfTheBudgetIsNotKept() {
        RememberedAnswers answers = new RememberedAnswers(1_000);
        answers.put(label(1, "huge"), new byte[101]);
        assertThat(answers.get(label(1, "huge"))).isNull();
        assertThat(answers.bytes()).isZero();
    }

    @Test
    void replacingAnAnswerCountsOnlyTheNewOne() {
        RememberedAnswers answers = new RememberedAnswers(1_000);
        answers.put(label(1, "page"), new byte[50]);
        answers.put(label(1, "page"), new byte[80]);
        assertThat(answers.bytes()).isEqualTo(80);
    }
}
