package dev.accelbridge.reports;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.history.Change;
import dev.accelbridge.reports.history.ChangeKind;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.accelbridge.reports.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExitPolicyTest {
    private final HostInfo h = host("e");
    private final RunResult ok = passed("r", t(0), h, ModelFamily.TEXT, "m", BackendId.CPU, nativeProv(h), new double[]{1, 2});
    private final RunResult unavailable = notRun("r", t(0), ModelFamily.TEXT, "m", BackendId.CUDA, Status.UNAVAILABLE, "0", nativeProv(h));
    private final RunResult failed = notRun("r", t(0), ModelFamily.TEXT, "m", BackendId.WASM, Status.FAILED, "boom", chromiumProv(h, false));
    private final RunResult fellBack = fellBack("r", t(0), h, ModelFamily.TEXT, "m", BackendId.WEBGPU, BackendId.WASM,
            chromiumProv(h, false), new double[]{1});
    private final Change regression = new Change(ChangeKind.REGRESSION, 1, 1.3, 1.3, 0.02, 0.1, 5, "r0");
    private final Change noise = new Change(ChangeKind.UNCHANGED, 1, 1.01, 1.01, 0.02, 0.1, 5, "r0");

    @Test
    void parsesAndRejects() {
        assertThat(ExitPolicy.parse("failed, wrong-output,REGRESSION").conditions()).containsExactlyInAnyOrder(
                ExitPolicy.Condition.FAILED, ExitPolicy.Condition.WRONG_OUTPUT, ExitPolicy.Condition.REGRESSION);
        assertThat(ExitPolicy.parse("none").conditions()).isEmpty();
        assertThat(ExitPolicy.parse("fell-back,unavailable,unsupported").conditions()).hasSize(3);
        assertThatThrownBy(() -> ExitPolicy.parse("failed,slow")).isInstanceOf(ReportsException.class)
                .hasMessageContaining("'slow'").satisfies(e -> assertThat(((ReportsException) e).fix()).contains("wrong-output"));
        assertThatThrownBy(() -> ExitPolicy.parse(" ")).isInstanceOf(ReportsException.class);
    }

    @Test
    void decides() {
        ExitPolicy def = ExitPolicy.defaults();
        assertThat(def.decide(List.of(ok, unavailable, fellBack), List.of(noise)).code()).isZero();
        assertThat(def.decide(List.of(ok, failed), List.of()).code()).isEqualTo(1);
        assertThat(def.decide(List.of(ok), List.of(regression)).reasons()).containsExactly("1 case(s) regression (--fail-on regression)");
        assertThat(ExitPolicy.parse("unavailable").decide(List.of(ok, unavailable), List.of()).code()).isEqualTo(1);
        assertThat(ExitPolicy.parse("fell-back").decide(List.of(fellBack), List.of()).code()).isEqualTo(1);
        assertThat(ExitPolicy.parse("none").decide(List.of(failed), List.of(regression)).code()).isZero();
    }

    @Test
    void anObservationJudgedInPartFailsUnderPartialOnly() {
        // found when tried: a generation judged on its first four steps of eight was PASSED, and no --fail-on could refuse it
        assertThat(ExitPolicy.parse("partial").decide(List.of(ok), List.of(), 0, 1).reasons())
                .containsExactly("1 session(s) judged on fewer runs than they made (--fail-on partial)");
        assertThat(ExitPolicy.parse("wrong-output").decide(List.of(ok), List.of(), 0, 1).code()).isZero();
        assertThat(ExitPolicy.parse("partial").decide(List.of(ok), List.of(), 0, 0).code()).isZero();
        assertThat(ExitPolicy.parse("partial").decide(List.of(ok), List.of()).code()).as("a run has no partial verdicts").isZero();
        assertThat(ExitPolicy.parse("failed").decide(List.of(ok), List.of(), 2, 0).code()).as("unseen fails any --fail-on").isEqualTo(1);
    }
}
