package dev.accelbridge.bisect;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Bisection;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.render.Text;
import dev.accelbridge.suites.SuiteException;
import dev.accelbridge.suites.onnx.OnnxTensors;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * The repro folder of a version bisection: the model as it ran ({@code model.onnx}), its inputs in the ONNX test-data
 * layout, and a README that names the last good and first bad versions, both results, every version tried, the first
 * diverging node when the bad version's output is wrong, and the commands that run both versions again.
 */
@PublicApi
public final class VersionRepros {
    private VersionRepros() {
    }

    /**
     * Writes the folder of {@code o} for {@code mc} under {@code root} and returns it.
     *
     * @throws SuiteException when the folder cannot be written
     */
    public static Path write(VersionBisector.Outcome o, ModelCase mc, Path root) {
        RunResult good = o.lastGood().result();
        RunResult bad = o.firstBad().result();
        Path dir = root.resolve((mc.model().name() + "-" + good.requested().id() + "-" + o.axis().dimension().name() + "-"
                + o.lastGood().version() + "-" + o.firstBad().version()).replaceAll("[^A-Za-z0-9_.-]", "_"));
        try {
            Files.createDirectories(dir.resolve("test_data_set_0"));
            if (mc.model().path() != null && Files.isRegularFile(mc.model().path())) {
                Files.copy(mc.model().path(), dir.resolve("model.onnx"), StandardCopyOption.REPLACE_EXISTING);
            }
            for (int k = 0; k < mc.inputs().size(); k++) {
                Files.write(dir.resolve("test_data_set_0").resolve("input_" + k + ".pb"), OnnxTensors.toProto(mc.inputs().get(k)).toByteArray());
            }
            Files.writeString(dir.resolve("README.md"), readme(o, mc, dir), StandardCharsets.UTF_8);
            return dir;
        } catch (IOException e) {
            throw new SuiteException("Cannot write the version repro folder " + dir + ": " + e.getMessage(),
                    "check that the reports folder (--out) is writable", e);
        }
    }

    static String readme(VersionBisector.Outcome o, ModelCase mc, Path dir) {
        RunResult good = o.lastGood().result();
        RunResult bad = o.firstBad().result();
        String what = o.axis().subject();
        StringBuilder s = new StringBuilder();
        // model names, input sets and versions come from the model and the registries: escaped, never in code spans
        String good0 = md(o.lastGood().version());
        String bad0 = md(o.firstBad().version());
        s.append("# ").append(md(good.id().row())).append(" on ").append(good.requested().id()).append(": ").append(what).append(' ')
                .append(good0).append(" → ").append(bad0).append("\n\n");
        s.append("Found by `accelbridge bisect-versions` among ").append(o.versions().size()).append(" versions of ").append(what)
                .append(" from ").append(md(o.versions().get(0))).append(" to ").append(md(o.versions().get(o.versions().size() - 1)))
                .append(", in ").append(o.probes().size()).append(" runs: ").append(what).append(' ').append(good0)
                .append(" is the last version whose verdict is ").append(md(o.versions().get(0))).append("'s, ").append(bad0)
                .append(" the first whose is not. Model ").append(md(mc.model().name())).append(" (sha256 ").append(md(good.modelSha256()))
                .append("), input set ").append(md(mc.inputSet())).append("; every case is in run `").append(o.runId()).append("`.\n\n");
        s.append("| | last good: ").append(what).append(' ').append(good0).append(" | first bad: ").append(what)
                .append(' ').append(bad0).append(" |\n|---|---|---|\n");
        row(s, "status", good.status() + good.actual().filter(b -> good.ranElsewhere()).map(b -> " on " + b.id()).orElse(""),
                bad.status() + bad.actual().filter(b -> bad.ranElsewhere()).map(b -> " on " + b.id()).orElse(""));
        row(s, "reason", good.reason() == null ? "" : good.reason(), bad.reason() == null ? "" : bad.reason());
        row(s, "p50", p50(good), p50(bad));
        row(s, "max abs error", err(good), err(bad));
        row(s, "lane", good.lane().key(), bad.lane().key());
        row(s, "browser", env(good.provenance(), Provenance::browserLabel), env(bad.provenance(), Provenance::browserLabel));
        row(s, "adapter", env(good.provenance(), Provenance::adapter), env(bad.provenance(), Provenance::adapter));
        row(s, "runtime", env(good.provenance(), p -> p.runtimeVersions().toString()), env(bad.provenance(), p -> p.runtimeVersions().toString()));
        s.append("\n## Every version tried\n\n| version | result |\n|---|---|\n");
        o.probes().stream().sorted((a, b) -> o.versions().indexOf(a.version()) - o.versions().indexOf(b.version()))
                .forEach(p -> s.append("| ").append(md(p.version())).append(" | ").append(Text.markdown(VersionBisector.describe(p.result())))
                        .append(" |\n"));
        Bisection b = bad.analysis().bisection();
        s.append("\n## First diverging node in ").append(what).append(' ').append(bad0).append("\n\n");
        if (b != null) {
            s.append(Text.markdown(b.describe())).append(b.reproDir() == null ? "" : " Single-node repro: `" + b.reproDir() + "`.").append("\n");
        } else {
            s.append(bad.status().executed() ? "None: its output is within tolerance (the change is in its status or speed)."
                    : "None: the case gave no output there (" + bad.status() + "), so its reason above is the evidence.").append("\n");
        }
        s.append("\n## Reproduce\n\n`model.onnx` is the model as it ran and `test_data_set_0/input_K.pb` its inputs (ONNX test-data ")
                .append("layout). Both versions again, judged against the native CPU reference:\n\n```\naccelbridge run --model ")
                .append(dir.toAbsolutePath()).append(" --backends ").append(good.requested().id()).append(' ')
                .append(LaneId.runOptions(java.util.List.of(good.lane(), bad.lane())))
                .append("\naccelbridge compare --by ").append(o.axis().dimension().name()).append(' ')
                .append(Text.terminal(o.lastGood().version())).append(' ').append(Text.terminal(o.firstBad().version()))
                .append(" --run ").append(o.runId()).append("\n```\n");
        return s.toString();
    }

    private static String p50(RunResult r) {
        return !r.status().executed() ? "–" : r.timings().map(t -> String.format(Locale.ROOT, "%.3f ms", t.p50Ms())).orElse("–");
    }

    private static String err(RunResult r) {
        return r.parity().map(q -> String.format(Locale.ROOT, "%.3g", q.maxAbsErr())).orElse("–");
    }

    private static String env(Provenance p, java.util.function.Function<Provenance, String> f) {
        String v = p == null ? null : f.apply(p);
        return v == null ? "–" : v;
    }

    private static void row(StringBuilder s, String k, String a, String b) {
        s.append("| ").append(k).append(" | ").append(Text.markdown(a)).append(" | ").append(Text.markdown(b)).append(" |\n");
    }

    private static String md(String v) {
        return Text.markdown(v);
    }
}
