package dev.accelbridge.reports;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.history.Change;
import dev.accelbridge.reports.history.ChangeKind;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What makes {@code accelbridge run}/{@code report} exit non-zero for CI: {@code --fail-on failed,wrong-output,regression}
 * (also {@code unavailable}, {@code unsupported}, {@code fell-back}; {@code none} for never). Pure.
 * Exit code {@link #FAIL_EXIT} (1) when any chosen condition is met, else 0.
 *
 * @param conditions what fails the process
 */
@PublicApi
public record ExitPolicy(Set<Condition> conditions) {
    /** The exit code of a run that met a --fail-on condition. */
    public static final int FAIL_EXIT = 1;

    /** A condition of {@code --fail-on}. */
    public enum Condition {
        FAILED, WRONG_OUTPUT, REGRESSION, UNAVAILABLE, UNSUPPORTED, FELL_BACK,
        /** An observed session whose verdict covers fewer runs than it made ({@code observe} only). */
        PARTIAL;

        /** The command-line spelling ({@code wrong-output}). */
        public String id() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    public ExitPolicy {
        conditions = conditions.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(conditions));
    }

    /** The default: {@code failed,wrong-output,regression}. */
    public static ExitPolicy defaults() {
        return new ExitPolicy(EnumSet.of(Condition.FAILED, Condition.WRONG_OUTPUT, Condition.REGRESSION));
    }

    /**
     * Parses {@code --fail-on}.
     *
     * @throws ReportsException naming an unknown condition and the valid ones
     */
    public static ExitPolicy parse(String csv) {
        EnumSet<Condition> set = EnumSet.noneOf(Condition.class);
        if (csv == null || csv.isBlank()) {
            throw new ReportsException("--fail-on is empty", "give conditions, e.g. --fail-on failed,wrong-output,regression, or none");
        }
        for (String part : csv.split(",")) {
            String p = part.trim().toLowerCase(Locale.ROOT);
            if (p.isEmpty()) {
                continue;
            }
            if (p.equals("none")) {
                continue;
            }
            Condition c = Arrays.stream(Condition.values()).filter(x -> x.id().equals(p) || x.name().equalsIgnoreCase(p))
                    .findFirst().orElseThrow(() -> new ReportsException("Unknown --fail-on condition '" + part.trim() + "'",
                            "use any of: " + Arrays.stream(Condition.values()).map(Condition::id).collect(Collectors.joining(", "))
                                    + ", or none"));
            set.add(c);
        }
        return new ExitPolicy(set);
    }

    /**
     * The decision.
     *
     * @param code    0, or {@link #FAIL_EXIT}
     * @param reasons one line per condition met, with counts
     */
    public record Decision(int code, List<String> reasons) {
    }

    /** Decides from the results shown and the changes found. */
    public Decision decide(Collection<RunResult> results, Collection<Change> changes) {
        List<String> reasons = new ArrayList<>();
        for (Condition c : Condition.values()) {
            if (!conditions.contains(c)) {
                continue;
            }
            if (c == Condition.PARTIAL) {
                continue; // an observation's, decided below
            }
            long n = c == Condition.REGRESSION
                    ? changes.stream().filter(x -> x != null && x.kind() == ChangeKind.REGRESSION).count()
                    : results.stream().filter(r -> r.status() == Status.valueOf(c.name())).count();
            if (n > 0) {
                reasons.add(n + " case(s) " + c.id() + " (--fail-on " + c.id() + ")");
            }
        }
        return new Decision(reasons.isEmpty() ? 0 : FAIL_EXIT, reasons);
    }

    /**
     * Decides an observation of an app: as {@link #decide}; a visit that saw {@code unseen} workers or frames it could not
     * observe passes no {@code --fail-on} at all (what they computed is unseen, never taken as fine); under
     * {@code partial}, {@code partial} sessions whose verdicts cover fewer runs than they made fail it.
     */
    public Decision decide(Collection<RunResult> results, Collection<Change> changes, int unseen, int partial) {
        Decision d = decide(results, changes);
        List<String> reasons = new ArrayList<>(d.reasons());
        if (partial > 0 && conditions.contains(Condition.PARTIAL)) {
            reasons.add(partial + " session(s) judged on fewer runs than they made (--fail-on partial)");
        }
        if (unseen > 0 && !conditions.isEmpty()) {
            reasons.add(unseen + " worker(s) or frame(s) seen and not observed: what they computed is unseen (any --fail-on)");
        }
        return new Decision(reasons.isEmpty() ? 0 : FAIL_EXIT, reasons);
    }
}
