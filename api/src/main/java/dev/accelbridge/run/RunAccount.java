package dev.accelbridge.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.Decoding;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.reports.store.ResultJson;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Where a run's wall time went, part by part: what {@code run} prints at its end, the run ledger keeps
 * ({@code runs.account}) and {@code bench/matrix} reads. Each part is measured where it happens; what no part claims is
 * {@link Part#OTHER}. Parallel browser lanes overlap, so with {@code --parallel} above 1 the parts may add up to more
 * than the wall time (and {@link Part#OTHER} is then 0). Thread-safe.
 */
@PublicApi
public final class RunAccount {
    /** The parts of a run. */
    public enum Part {
        /** From the process's start (the CLI) or the run's request to the run's first step, less what is claimed below. */
        START("JVM and bridge start"),
        /** Generating the suites' models and reading users' models. */
        MODELS("model preparation"),
        /** Probing the native backends. */
        PROBES("native probes"),
        /** Launching browsers, loading the page and probing it, closing them: a browser lane's time outside its cases. */
        BROWSERS("browser launches and probes"),
        /**
         * The cold costs of first use: session creation and first inference of the first case on each fresh page (or
         * process), where the engine's WebAssembly is compiled, its shaders built and its caches filled; why a newcomer's
         * first run is slower than the second. Later cases' are {@link #SESSIONS} and {@link #FIRST}.
         */
        COLD("first use (fresh pages)"),
        /** Session creation inside cases ({@code loadMs}), less the first case on each fresh page ({@link #COLD}). */
        SESSIONS("session creation"),
        /** The first inference of every case ({@code firstMs}), less the first case on each fresh page ({@link #COLD}). */
        FIRST("first inference"),
        /** The timed iterations themselves (the sum of every kept sample). */
        TIMED("timed compute"),
        /** The warm-up runs ({@code warmupMs}, measured where they ran). */
        WARMUPS("warm-ups"),
        /**
         * A generation's teacher-forced pass (fed the reference's tokens, whose logits the verdict reads): inference the
         * method asks for, measured where it ran, never a figure.
         */
        TEACHER("teacher-forced passes"),
        /** The rest of a case's time: moving models, inputs and outputs, output checks, releasing, fallbacks that failed. */
        IN_CASE("transfers, checks, release"),
        /** Native CPU runs made only to have a reference output, and bisection of wrong outputs. */
        REFERENCES("references and bisection"),
        /** Writing results, probes and models to the store. */
        STORE("store writes"),
        /** Building and writing the reports. */
        REPORTS("reports"),
        /** What no part claims. */
        OTHER("other");

        private final String label;

        Part(String label) {
            this.label = label;
        }

        /** The part in words. */
        public String label() {
            return label;
        }
    }

    private final long since;
    private final Map<Part, Long> nanos = new EnumMap<>(Part.class);
    private long claimed;
    private long finished = -1;

    private RunAccount(long sinceNanos) {
        this.since = sinceNanos;
    }

    /** An account that begins now (a run a program starts inside a longer-lived JVM). */
    public static RunAccount startingNow() {
        return new RunAccount(System.nanoTime());
    }

    /** An account that begins when this JVM did (a run that is the process's whole job: the CLI). */
    public static RunAccount sinceJvmStart() {
        long upNanos = java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() * 1_000_000L;
        return new RunAccount(System.nanoTime() - upNanos);
    }

    /** Adds {@code n} nanoseconds to {@code part}. */
    public synchronized void add(Part part, long n) {
        nanos.merge(part, Math.max(0, n), Long::sum);
        claimed += Math.max(0, n);
    }

    /** Runs {@code work}, adding its time to {@code part}. */
    public <T> T time(Part part, Supplier<T> work) {
        long t = System.nanoTime();
        try {
            return work.get();
        } finally {
            add(part, System.nanoTime() - t);
        }
    }

    /** Runs {@code work}, adding its time to {@code part}. */
    public void time(Part part, Runnable work) {
        time(part, () -> {
            work.run();
            return null;
        });
    }

    /** Runs {@code work}, adding to {@code part} its time less what other parts claimed meanwhile (never below 0). */
    public void timeExclusive(Part part, Runnable work) {
        long t = System.nanoTime();
        long before = claimed();
        try {
            work.run();
        } finally {
            add(part, System.nanoTime() - t - (claimed() - before));
        }
    }

    /** Gives {@link Part#START} the time since the account began that no part has claimed yet (call as a run begins). */
    public synchronized void startDone() {
        if (!nanos.containsKey(Part.START)) {
            add(Part.START, System.nanoTime() - since - claimed);
        }
    }

    /** One executed case: its session creation, first inference and timed samples, and the rest of its {@code caseNanos}. */
    public void addCase(Execution e, long caseNanos) {
        long inside = 0;
        if (e != null && e.timings() != null) {
            var t = e.timings();
            long load = ms(t.loadMs());
            long first = ms(t.firstMs());
            long timed = ms(java.util.Arrays.stream(t.samplesMs()).sum());
            long warm = ms(t.quality().warmupMs());
            long teacher = t.figures() instanceof Decoding d ? ms(d.teacherMs()) : 0;
            var cold = e.analysis() == null ? null : e.analysis().coldStart();
            if (cold != null && Boolean.TRUE.equals(cold.freshPage())) {
                add(Part.COLD, load + first); // the engine built and its shaders compiled on first use: a cost of its own
            } else {
                add(Part.SESSIONS, load);
                add(Part.FIRST, first);
            }
            add(Part.WARMUPS, warm);
            add(Part.TIMED, timed);
            add(Part.TEACHER, teacher);
            inside = load + first + warm + timed + teacher;
        }
        add(Part.IN_CASE, caseNanos - inside);
    }

    private static long ms(double v) {
        return Double.isFinite(v) && v > 0 ? (long) (v * 1e6) : 0;
    }

    private synchronized long claimed() {
        return claimed;
    }

    /** Ends the account: the wall time is fixed and {@link Part#OTHER} takes what is unclaimed. Later calls change nothing. */
    public synchronized void finish() {
        if (finished < 0) {
            finished = System.nanoTime();
            nanos.remove(Part.OTHER);
            long sum = nanos.values().stream().mapToLong(Long::longValue).sum();
            nanos.put(Part.OTHER, Math.max(0, finished - since - sum));
        }
    }

    /** The wall time so far (or until {@link #finish}), in ms. */
    public synchronized double wallMs() {
        return ((finished < 0 ? System.nanoTime() : finished) - since) / 1e6;
    }

    /** A part's time in ms. */
    public synchronized double ms(Part p) {
        return nanos.getOrDefault(p, 0L) / 1e6;
    }

    /**
     * What was measured where inference happens: session creation, first inference (the first use's included) and the timed
     * iterations, in ms.
     */
    public double computeMs() {
        return ms(Part.COLD) + ms(Part.SESSIONS) + ms(Part.FIRST) + ms(Part.TIMED);
    }

    /**
     * {@link #computeMs()}, the warm-ups (measured where they ran, as a whole) and the teacher-forced passes: all the
     * inference the run did, in ms.
     */
    public double inferenceMs() {
        return computeMs() + ms(Part.WARMUPS) + ms(Part.TEACHER);
    }

    /** The account as the ledger keeps it: {@code wallMs}, {@code computeMs}, {@code wallOverCompute}, {@code parts}. */
    public synchronized ObjectNode toJson() {
        ObjectNode o = ResultJson.MAPPER.createObjectNode();
        o.put("wallMs", round(wallMs())).put("computeMs", round(computeMs()));
        o.put("wallOverCompute", computeMs() > 0 ? Math.round(wallMs() / computeMs() * 1000) / 1000.0 : null);
        o.put("inferenceMs", round(inferenceMs()));
        o.put("wallOverInference", inferenceMs() > 0 ? Math.round(wallMs() / inferenceMs() * 1000) / 1000.0 : null);
        ObjectNode parts = o.putObject("parts");
        for (Part p : Part.values()) {
            parts.put(p.name().toLowerCase(Locale.ROOT), round(ms(p)));
        }
        return o;
    }

    /** The account as {@code run} prints it: one line per part with its share, then wall against compute. */
    public synchronized String render() {
        double wall = wallMs();
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "where the %.1f s went:%n", wall / 1000));
        for (Part p : Part.values()) {
            double v = ms(p);
            sb.append(String.format(Locale.ROOT, "  %-28s %8.2f s %6.1f %%%n", p.label(), v / 1000, wall > 0 ? 100 * v / wall : 0));
        }
        double c = computeMs();
        double i = inferenceMs();
        sb.append(String.format(Locale.ROOT, "  compute (sessions, first inferences, timed): %.2f s; wall / compute %s%n", c / 1000,
                c > 0 ? String.format(Locale.ROOT, "%.2f×", wall / c) : "–"));
        sb.append(String.format(Locale.ROOT, "  all inference (the same, the warm-ups and teacher-forced passes): %.2f s; wall / inference %s%n", i / 1000,
                i > 0 ? String.format(Locale.ROOT, "%.2f×", wall / i) : "–"));
        return sb.toString();
    }

    private static double round(double ms) {
        return Math.round(ms * 10) / 10.0;
    }
}
