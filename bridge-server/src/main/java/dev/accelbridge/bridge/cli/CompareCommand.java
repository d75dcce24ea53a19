package dev.accelbridge.bridge.cli;

import dev.accelbridge.core.SampleStats;
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

/** {@code accelbridge compare A B}: two runs (or two hosts or lanes) side by side, each ratio with its interval. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Two runs (or two hosts, or two lanes of one run) side by side: each case's p50 ratio B/A with its "
                + "bootstrap 95 % interval, and whether the change is significant (the interval excludes no change and the "
                + "ratio differs by more than --threshold). From the store's measurements only.")
public final class CompareCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Parameters(index = "0", paramLabel = "A", description = "Side A: a run id (or a host, or a lane with --by).")
    String a;

    @Parameters(index = "1", paramLabel = "B", description = "Side B.")
    String b;

    @Option(names = "--by", paramLabel = "run|host|lane", description = "What differs between the sides (default run).")
    String by = "run";

    @Option(names = "--run", paramLabel = "RUN_ID", description = "With --by host or lane: the run both sides come from "
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
                out.println(c.toJson());
                return Main.OK;
            }
            int matched = 0;
            int significant = 0;
            for (Comparison.Row r : c.rows()) {
                if (!Double.isFinite(r.ratio())) {
                    continue;
                }
                matched++;
                significant += r.significant() ? 1 : 0;
                out.printf(Locale.ROOT, "%-70s ×%.3f %s%s%n", r.label(), r.ratio(),
                        r.ratioCi() == null ? "[no interval]" : String.format(Locale.ROOT, "[%.3f–%.3f]", r.ratioCi().lo(), r.ratioCi().hi()),
                        r.significant() ? (r.ratio() > 1 ? "  significantly slower" : "  significantly faster") : "");
            }
            out.printf(Locale.ROOT, "%d cases on both sides, %d significantly different (threshold %.0f %%)%n", matched, significant,
                    threshold * 100);
            return Main.OK;
        }
    }
}
