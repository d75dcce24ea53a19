package dev.accelbridge.tools.cli;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * In a log (not a terminal) a case is one line, when it ends, and a heartbeat every five seconds while a long one runs.
 * Found when tried: a generation printed one progress line per timed run (1,500 at --iterations 1500), and a loop a least
 * duration ran past its count printed one per run ("timed 82 runs", "timed 83 runs", ... 101 lines for one case).
 */
class ProgressListenerTest {
    private static CaseId id(String model) {
        ModelSpec spec = new ModelSpec(ModelFamily.OTHER, model, Path.of(model + ".onnx"), "00", 13, 1, List.of(), List.of(), List.of(), "test", 1e-4);
        return CaseId.of(new ModelCase(spec, "in", List.of(NamedTensor.ofFloats("x", new long[] {1}, new float[] {1})),
                Optional.empty()), BackendId.CPU, LaneId.NATIVE);
    }

    @Test
    void aLogGetsAHeartbeatEveryFiveSecondsOfALongCaseNotOnePerRun() {
        StringWriter out = new StringWriter();
        AtomicLong now = new AtomicLong();
        ProgressListener p = new ProgressListener(new PrintWriter(out), false, false, now::get);
        CaseId id = id("m");
        p.caseProgress(id, BackendId.CPU, "warmup", 1, 10);
        for (int i = 1; i <= 1500; i++) {
            now.addAndGet(100_000_000L); // 150 s of timed runs, 0.1 s each
            p.caseProgress(id, BackendId.CPU, "timed", i, 1500);
        }
        assertThat(out.toString().lines().toList()).as("one per 5 s").hasSize(30);
    }

    @Test
    void aShortCaseIsItsOneLineWhateverItsLoopsRanPastTheirCounts() {
        StringWriter out = new StringWriter();
        AtomicLong now = new AtomicLong();
        ProgressListener p = new ProgressListener(new PrintWriter(out), false, false, now::get);
        CaseId a = id("a");
        CaseId b = id("b");
        for (int i = 1; i <= 101; i++) {
            now.addAndGet(20_000_000L); // 2 s in all, two lanes' cases reporting in turn
            p.caseProgress(a, BackendId.CPU, "timed", i, 10);
            p.caseProgress(b, BackendId.CPU, i < 50 ? "warmup" : "timed", i, 10);
        }
        assertThat(out.toString()).as("no line while they run").isEmpty();
        for (int i = 1; i <= 200; i++) {
            now.addAndGet(20_000_000L); // 4 s more: each case its own heartbeat at 5 s, interleaved as they are
            p.caseProgress(a, BackendId.CPU, "timed", 101 + i, 10);
            p.caseProgress(b, BackendId.CPU, "timed", 101 + i, 10);
        }
        assertThat(out.toString().lines().toList()).hasSize(2).anyMatch(l -> l.contains("other/a ")).anyMatch(l -> l.contains("other/b "));
    }
}
