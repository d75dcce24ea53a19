package dev.accelbridge.fallback;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.FallbackHop;
import dev.accelbridge.core.Status;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The outcome of resolving a {@link Chain}: every candidate with its state and evidence, and the chosen hop
 * (the first {@link HopState#AVAILABLE} one). Immutable; runtime fallback returns a new Resolution.
 *
 * <p>Hop reasons ({@link #hops()}):
 * <ul>
 *   <li>the chosen hop: {@code available: <probe evidence>}</li>
 *   <li>an unavailable hop: {@code unavailable: <probe evidence>}</li>
 *   <li>a hop without a probe answer: {@code not probed}</li>
 *   <li>a hop that failed at run time: {@code failed: <error>} ({@code unsupported: ...}, {@code wrong output: ...})</li>
 *   <li>an available hop after the chosen one: {@code available, not needed: <chosen> was taken} </li>
 * </ul>
 */
@PublicApi
public final class Resolution {
    private final Chain chain;
    private final List<HopState> states;
    private final List<String> details;

    Resolution(Chain chain, List<HopState> states, List<String> details) {
        this.chain = chain;
        this.states = List.copyOf(states);
        this.details = List.copyOf(details);
    }

    static String describe(Availability a) {
        String ev = a.evidence() == null || a.evidence().isBlank() ? "(no evidence given)" : a.evidence();
        return a.where() == null || a.where().isBlank() ? ev : ev + " [" + a.where() + "]";
    }

    /** The chain resolved. */
    public Chain chain() {
        return chain;
    }

    /** The requested backend. */
    public BackendId requested() {
        return chain.requested();
    }

    /** Each candidate's state, in chain order. */
    public List<HopState> states() {
        return states;
    }

    /** The state of one candidate. */
    public HopState stateOf(BackendId b) {
        int i = chain.hops().indexOf(b);
        if (i < 0) {
            throw new FallbackException(b + " is not on the fallback chain " + chain, "use one of its hops: " + chain.toCsv());
        }
        return states.get(i);
    }

    /** The backend to run on: the first usable hop; empty when none is left. */
    public Optional<BackendId> chosen() {
        for (int i = 0; i < states.size(); i++) {
            if (states.get(i).usable()) {
                return Optional.of(chain.hops().get(i));
            }
        }
        return Optional.empty();
    }

    /** True when the chosen hop is a later one than the requested backend. */
    public boolean fellBack() {
        return chosen().map(c -> c != chain.requested()).orElse(false);
    }

    /** Every candidate as a {@link FallbackHop}: backend, whether it is the one taken, and why. */
    public List<FallbackHop> hops() {
        Optional<BackendId> chosen = chosen();
        List<FallbackHop> out = new ArrayList<>(states.size());
        for (int i = 0; i < states.size(); i++) {
            BackendId b = chain.hops().get(i);
            boolean taken = chosen.map(c -> c == b).orElse(false);
            out.add(new FallbackHop(b, taken, reason(i, chosen)));
        }
        return out;
    }

    private String reason(int i, Optional<BackendId> chosen) {
        HopState s = states.get(i);
        String d = details.get(i);
        return switch (s) {
            case AVAILABLE -> {
                BackendId c = chosen.orElseThrow();
                int ci = chain.hops().indexOf(c);
                yield i == ci ? "available: " + d : "available, not needed: " + c + " was taken";
            }
            case UNAVAILABLE -> "unavailable: " + d;
            case NOT_PROBED -> "not probed";
            case FAILED -> "failed: " + d;
            case UNSUPPORTED -> "unsupported: " + d;
            case WRONG_OUTPUT -> "wrong output: " + d;
        };
    }

    /**
     * The chosen hop failed to load or run: a new Resolution that keeps {@code error} as that hop's reason and
     * moves on to the next available hop (if any).
     *
     * @throws FallbackException when {@code failed} is not the chosen hop (a caller bug: only what ran can fail)
     */
    public Resolution afterFailure(BackendId failed, String error) {
        return after(failed, HopState.FAILED, error);
    }

    /** The chosen hop reported the model as unsupported: like {@link #afterFailure}, kept as "unsupported". */
    public Resolution afterUnsupported(BackendId backend, String error) {
        return after(backend, HopState.UNSUPPORTED, error);
    }

    /**
     * The chosen hop ran with outputs outside tolerance: moves on only when {@code policy} says so, else
     * returns this resolution unchanged (the case stays WRONG_OUTPUT on that hop).
     */
    public Resolution afterWrongOutput(BackendId backend, String detail, FallbackPolicy policy) {
        if (!policy.movesOn(Status.WRONG_OUTPUT)) {
            return this;
        }
        return after(backend, HopState.WRONG_OUTPUT, detail);
    }

    /**
     * Applies the outcome of a run on the chosen hop: FAILED, UNSUPPORTED, or (by policy) WRONG_OUTPUT move on;
     * anything else returns this resolution.
     */
    public Resolution after(BackendId backend, Status outcome, String detail, FallbackPolicy policy) {
        if (!policy.movesOn(outcome)) {
            return this;
        }
        return switch (outcome) {
            case FAILED -> afterFailure(backend, detail);
            case UNSUPPORTED -> afterUnsupported(backend, detail);
            case WRONG_OUTPUT -> after(backend, HopState.WRONG_OUTPUT, detail);
            default -> this;
        };
    }

    private Resolution after(BackendId backend, HopState state, String detail) {
        BackendId c = chosen().orElseThrow(() -> new FallbackException(
                backend + " cannot have failed: no hop of " + chain + " was chosen", "run only the chosen hop"));
        if (c != backend) {
            throw new FallbackException(backend + " cannot have failed: the chosen hop of " + chain + " is " + c,
                    "report failures of the chosen hop only");
        }
        int i = chain.hops().indexOf(backend);
        List<HopState> s = new ArrayList<>(states);
        List<String> d = new ArrayList<>(details);
        s.set(i, state);
        d.set(i, detail == null || detail.isBlank() ? "(no message)" : detail);
        return new Resolution(chain, s, d);
    }

    /**
     * The final status of the case, given the outcome of the run on the chosen hop.
     * <ul>
     *   <li>no hop chosen: FAILED when a hop failed, else UNSUPPORTED when a hop was unsupported, else
     *       WRONG_OUTPUT when a hop was moved past for a wrong output, else UNAVAILABLE; the reason lists
     *       every hop's reason</li>
     *   <li>chosen is the requested backend: {@code outcome} as is (reason null for PASSED)</li>
     *   <li>chosen is a later hop: PASSED becomes FELL_BACK, with requested → actual and the reasons of the
     *       hops before it; any other outcome (WRONG_OUTPUT, FAILED...) stays, with the path in the reason</li>
     * </ul>
     *
     * @param outcome the status the run on the chosen hop got (ignored when nothing was chosen)
     */
    public Verdict statusFor(Status outcome) {
        Optional<BackendId> chosen = chosen();
        if (chosen.isEmpty()) {
            Status st = states.contains(HopState.FAILED) ? Status.FAILED
                    : states.contains(HopState.UNSUPPORTED) ? Status.UNSUPPORTED
                    : states.contains(HopState.WRONG_OUTPUT) ? Status.WRONG_OUTPUT
                    : Status.UNAVAILABLE;
            return new Verdict(st, "no backend of " + chain + " could run it: " + allReasons());
        }
        BackendId c = chosen.get();
        if (c == chain.requested()) {
            return new Verdict(outcome, null);
        }
        String why = chain.requested() + " → " + c + " (" + reasonsBefore(c) + ")";
        if (outcome == Status.PASSED) {
            return new Verdict(Status.FELL_BACK, "fell back " + why);
        }
        return new Verdict(outcome, "after fallback " + why);
    }

    /** {@link #statusFor(Status)} when the chosen hop passed. */
    public Verdict statusFor() {
        return statusFor(Status.PASSED);
    }

    private String allReasons() {
        return hops().stream().map(h -> h.backend() + " " + h.reason()).collect(Collectors.joining("; "));
    }

    private String reasonsBefore(BackendId c) {
        List<FallbackHop> h = hops();
        int ci = chain.hops().indexOf(c);
        return h.subList(0, ci).stream().map(x -> x.backend() + " " + x.reason()).collect(Collectors.joining("; "));
    }

    @Override
    public String toString() {
        return hops().stream().map(h -> (h.taken() ? "*" : "") + h.backend() + "(" + h.reason() + ")")
                .collect(Collectors.joining(" → "));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Resolution r && r.chain.equals(chain) && r.states.equals(states) && r.details.equals(details);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(chain, states, details);
    }
}
