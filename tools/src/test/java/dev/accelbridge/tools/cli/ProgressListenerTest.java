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

/** Found when tried: in a log, a generation printed one progress line per timed run (1,500 at --iterations 1500). */
class ProgressListenerTest {
    @Test
    void aLogGetsACasesFirstLineOneEveryTenSecondsAndItsLastNotOnePerRun() {
        StringWriter out = new StringWriter();
        AtomicLong now = new AtomicLong();
        ProgressListener p = new ProgressListener(new PrintWriter(out), false, false, now::get);
        ModelSpec spec = new ModelSpec(ModelFamily.OTHER, "m", Path.of("m.onnx"), "00", 13, 1, List.of(), List.of(), List.of(), "test", 1e-4);
        CaseId id = CaseId.of(new ModelCase(spec, "in", List.of(NamedTensor.ofFloats("x", new long[] {1}, new float[] {1})),
                Optional.empty()), BackendId.CPU, LaneId.NATIVE);
        p.caseProgress(id, BackendId.CPU, "warmup", 1, 10);
        for (int i = 1; i <= 1500; i++) {
            now.addAndGet(100_000_000L); // 150 s of timed runs, 0.1 s each
            p.caseProgress(id, BackendId.CPU, "timed", i, 1500);
        }
        List<String> lines = out.toString().lines().toList();
        // warm-up, the first timed line, one per 10 s after it (14), the last
        assertThat(lines).hasSize(17);
        assertThat(lines.get(lines.size() - 1)).contains("1500");
    }
}
