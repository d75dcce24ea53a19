package dev.accelbridge.tools.cli;

import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.SampleStats;
import dev.accelbridge.reports.render.Text;
import dev.accelbridge.reports.render.ComparisonJson;
import dev.accelbridge.reports.render.Comparison;
import dev.accelbridge.reports.render.Comparisons;
import dev.accelbridge.reports.store.MatrixStore;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code accelbridge compare A B}: two runs (or two hosts, lanes or versions) side by side, each ratio with its interval. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Two runs (or two hosts, two lanes, or two versions of a browser, onnxruntime-web or ONNX Runtime) side by "
                + "side, cell by cell: each case's status on both sides and its p50 ratio B/A with its bootstrap 95 %% interval, and "
                + "whether the change is significant (the interval excludes no change and the ratio differs by more than "
                + "--threshold). From the store's measurements only.")
public final class CompareCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Parameters(index = "0", paramLabel = "A", description = "Side A: a run id (or a host, a lane or a version with --by).")
    String a;

    @Parameters(index = "1", paramLabel = "B", description = "Side B.")
    String b;

    @Option(names = "--by", paramLabel = "WHAT", description = "What differs between the sides: run (default), host, lane, runtimeOptions, "
            + "browserMajor, ortWebVersion (ort-web) or ortVersion (ort).")
    String by = "run";

    @Option(names = "--run", paramLabel = "RUN_ID", description = "With --by other than run: the run both sides come from "
            + "(default: the newest result of every cell).")
    String run;

    @Option(names = "--threshold", paramLabel = "FRACTION", converter = Converters.Fraction.class,
            description = "The smallest change called significant (default 0.10).")
    double threshold = SampleStats.CHANGE_THRESHOLD;

    @Option(names = "--json", description = "Print the comparison as JSON (the dashboard's /api/compare form).")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Comparison.By dim = Comparison.By.parse(by);
        try (MatrixStore store = MatrixStore.openReadOnly(common.dbPath())) {
            Comparison c = Comparisons.of(store, dim, a, b, Optional.ofNullable(run), threshold);
            if (json) {
                out.println(ComparisonJson.json(c));
                return Main.OK;
            }
            int matched = 0;
            int changed = 0;
            int significant = 0;
            for (Comparison.Row r : c.rows()) {
                String sa = r.a() == null ? "absent" : r.a().status().name();
                String sb = r.b() == null ? "absent" : r.b().status().name();
                boolean statusChanged = !sa.equals(sb);
                if (r.a() != null && r.b() != null) {
                    matched++;
                }
                changed += statusChanged ? 1 : 0;
                if (Double.isFinite(r.ratio())) {
                    significant += r.significant() ? 1 : 0;
                    out.printf(Locale.ROOT, "%-70s ×%.3f %s%s%s%n", r.label(), r.ratio(),
                            r.ratioCi() == null ? "[no interval]" : String.format(Locale.ROOT, "[%.3f–%.3f]", r.ratioCi().lo(), r.ratioCi().hi()),
                            r.significant() ? (r.ratio() > 1 ? "  significantly slower" : "  significantly faster") : "",
                            statusChanged ? "  " + sa + " → " + sb : "");
                    if (r.decodingChange() != null) {
                        out.printf(Locale.ROOT, "%-70s %s%n", "", r.decodingChange());
                    }
                    if (r.memoryChange() != null) {
                        out.printf(Locale.ROOT, "%-70s %s%n", "", r.memoryChange());
                    }
                    if (r.caveat() != null) {
                        out.printf(Locale.ROOT, "%-70s %s%n", "", r.caveat());
                    }
                } else if (r.a() != null && r.b() != null && r.a().status().executed() && r.b().status().executed() && r.caveat() != null) {
                    // both ran, but a figure is no speed (a software adapter's): the row says why, and what each side held
                    out.printf(Locale.ROOT, "%-70s %s%s%n", r.label(), r.caveat(), statusChanged ? "  " + sa + " → " + sb : "");
                    if (r.memoryChange() != null) {
                        out.printf(Locale.ROOT, "%-70s %s%n", "", r.memoryChange());
                    }
                } else if (statusChanged) {
                    // a verdict that changed says why on the side that did not run
                    RunResult why = r.b() != null && !r.b().status().executed() ? r.b() : r.a();
                    out.printf(Locale.ROOT, "%-70s %s → %s%s%n", r.label(), sa, sb,
                            why == null || why.reason() == null ? "" : "  (" + abbreviate(Text.terminal(why.reason())) + ")");
                }
            }
            out.printf(Locale.ROOT, "%d cases on both sides, %d statuses changed, %d significantly different (threshold %.0f %%)%n",
                    matched, changed, significant, threshold * 100);
            return Main.OK;
        }
    }

    private static String abbreviate(String s) {
        return s.length() > 160 ? s.substring(0, 160) + "…" : s;
    }
}
