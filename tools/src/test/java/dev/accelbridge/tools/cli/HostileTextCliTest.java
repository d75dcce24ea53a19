package dev.accelbridge.tools.cli;

import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.Analysis;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.Readout;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.Fixtures;
import dev.accelbridge.reports.store.MatrixStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.Optional;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Text from a folder (a model's name) and from a page (its host's name, its user agent) reaches no terminal raw. Found when
 * tried: recommend printed model and host names as they were, and a joining page set the terminal's title and cleared the
 * screen. One rule for every printer: each line of outside text is one line (Text.terminal), and everything the CLI prints
 * passes TerminalSafeWriter, which lets colour through and nothing else that a terminal obeys.
 */
class HostileTextCliTest {
    private static final String HOSTILE = "evil\u001b]0;pwned\u0007\u001b[2J\u0007<b>x</b>\nPASSED fake\u009b2J";

    @TempDir
    Path tmp;

    @Test
    void theWriterEveryCommandPrintsThroughLetsColourPassAndNothingElse() throws Exception {
        StringWriter sink = new StringWriter();
        try (TerminalSafeWriter w = new TerminalSafeWriter(sink)) {
            w.write("a\u001b[31mred\u001b[0m" + HOSTILE.substring(0, 10));
            w.write(HOSTILE.substring(10)); // a sequence cut between two writes is still one
            w.write("\u001b[1;2Hmoved\tend\r\n");
        }
        assertThat(sink.toString()).isEqualTo("a\u001b[31mred\u001b[0mevil<b>x</b>\nPASSED fake2Jmoved\tend\r\n");
    }

    @Test
    void aHostileModelAndHostNameReachNeitherTheHostRecordNorTheTerminalRaw() throws Exception {
        HostInfo host = new HostInfo(HOSTILE, "fp-evil", "Linux " + HOSTILE, "amd64", "cpu", 2, 2, List.of(), 1L << 30, List.of(HOSTILE), "17");
        assertThat(host.hostname() + host.os() + host.gpus()).doesNotContain("\u001b", "\u0007", "\n", "\u009b");

        Path db = tmp.resolve("m.duckdb");
        Provenance prov = new Provenance(HOSTILE, "fp-evil", "Linux", "chromium", "156.0.8078.73", "playwright", null, null,
                List.of("wasm"), Map.of("onnxruntime-web", "1.30.0"), 2);
        try (MatrixStore s = MatrixStore.open(db)) {
            String run = s.beginRun(host, Map.of(), "{}");
            for (Precision p : List.of(Precision.FP32, Precision.Q8)) {
                RunResult r = Fixtures.passed(run, Fixtures.t(p.ordinal()), host, ModelFamily.TEXT, HOSTILE, BackendId.WASM, prov,
                        Fixtures.samples(p == Precision.FP32 ? 20 : 10, 0.01, 20, p.ordinal()));
                CaseId id = r.id();
                RunResult v = RunResult.of(run, r.startedAt(), new CaseId(id.family(), id.model(), id.modelSha256(), id.inputSet(),
                        id.inputShapes(), p, 1, id.requested(), id.lane()), new Outcome.Ran(r.actual().orElse(null), r.timings().orElse(null), Optional.ofNullable(p == Precision.FP32 ? r.parity().orElse(null) : new Parity(0.01, 0.01, 0.9999, 0.1, true, "native-cpu fp32"))), r.status(), null, prov, r.memory(), r.fallbackPath(),
                        List.of()).withVariantParity(p == Precision.FP32 ? null : new Parity(0, 0, 1, 0.1, true, "native-cpu q8"))
                        .withAnalysis(Analysis.NONE.withReadout(new Readout(Readout.Kind.POOLED_EMBEDDING, 4, 0.9999, 0.001, 4, null)));
                s.write(v);
            }
            s.finishRun(run);
            assertThat(s.allResults()).isNotEmpty();
        }
        for (List<String> args : List.of(List.of("recommend", "--dtypes"), List.of("recommend", "--per-model"))) {
            List<String> all = new java.util.ArrayList<>(args);
            all.addAll(List.of("--db", db.toString()));
            CliRunner.Result r = CliRunner.run(all.toArray(String[]::new));
            assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
            assertThat(r.out()).as(args.toString()).doesNotContain("\u001b", "\u0007", "\u009b").contains("<b>x</b>");
            assertThat(r.out().lines()).as("a name's newline makes no line of its own").noneMatch(l -> l.startsWith("PASSED fake"));
        }
        // and through the writers the command line really prints with
        PrintStream was = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            assertThat(Main.commandLine().execute("recommend", "--dtypes", "--db", db.toString())).isEqualTo(Main.OK);
        } finally {
            System.setOut(was);
        }
        assertThat(bytes.toString(StandardCharsets.UTF_8)).doesNotContain("\u001b", "\u0007").contains("ship");
    }
}
