package dev.keyhaven.server.interop;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What {@link NpmInteropIT} puts in its assertion when node's tests fail: each failure with its diagnostics. */
class TapFailuresTest {
    @Test
    void keepsEachFailedTestWithItsDiagnosticsAndNothingElse() {
        String tap = """
                TAP version 13
                # Subtest: wallets
                ok 1 - wallets
                  ---
                  duration_ms: 12.5
                  ...
                # Subtest: signing
                    not ok 1 - a raw payload
                      ---
                      error: 'Expected values to be strictly equal'
                      expected: 64
                      actual: 63
                      ...
                not ok 2 - signing
                  ---
                  error: '1 subtest failed'
                  ...
                1..2
                # pass 1
                # fail 1
                """;

        assertThat(NpmInteropIT.failures(tap)).isEqualTo("""
                    not ok 1 - a raw payload
                      ---
                      error: 'Expected values to be strictly equal'
                      expected: 64
                      actual: 63
                      ...
                not ok 2 - signing
                  ---
                  error: '1 subtest failed'
                  ...""".replace("\n", System.lineSeparator()));
    }

    @Test
    void saysSoWhenTheReportHasNoFailure() {
        assertThat(NpmInteropIT.failures("TAP version 13\nok 1 - wallets\n# pass 1\n"))
                .isEqualTo("(no failed test in the TAP report)");
        assertThat(NpmInteropIT.failures("")).isEqualTo("(no failed test in the TAP report)");
    }
}
