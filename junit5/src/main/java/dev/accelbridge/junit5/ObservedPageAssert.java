package dev.accelbridge.junit5;

import dev.accelbridge.api.ObservedPage;
import dev.accelbridge.api.ObservedVerdict;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Status;
import org.assertj.core.api.AbstractAssert;

import java.util.List;
import java.util.function.Predicate;

/**
 * AssertJ assertions on a user's observed page: the onnxruntime-web sessions its app made, each judged against native
 * CPU on the inputs the app fed ({@code assertThat(observed).allSessionsMatchNative()}). Each asks for at least one session
 * (an app that made none is not a pass), and a failure names every session concerned with its verdict or why it has none.
 */
public final class ObservedPageAssert extends AbstractAssert<ObservedPageAssert, ObservedPage> {

    ObservedPageAssert(ObservedPage actual) {
        super(actual, ObservedPageAssert.class);
    }

    /** Every session the page made ran and matched native CPU within the case tolerance. */
    public ObservedPageAssert allSessionsMatchNative() {
        return match("every session", v -> true);
    }

    /**
     * Every session the page made was judged on every run it made (a verdict on its first runs alone says nothing of a
     * generation's later steps): use it beside {@link #allSessionsMatchNative()} to require full coverage.
     */
    public ObservedPageAssert everyRunJudged() {
        isNotNull();
        List<ObservedVerdict> all = actual.verdicts();
        if (all.isEmpty()) {
            failWithMessage("Expecting every run of every session judged, but the page made no session");
        }
        List<ObservedVerdict> part = all.stream().filter(v -> !(v instanceof ObservedVerdict.Judged j && j.coversEveryRun())).toList();
        if (!part.isEmpty()) {
            failWithMessage("Expecting every run of every session judged, but:%n%s", String.join(System.lineSeparator(), part.stream()
                    .map(v -> line(v) + (v instanceof ObservedVerdict.Judged j ? "; judged on " + j.judged() + " of its "
                            + v.session().runCount() + " runs" : "")).toList()));
        }
        return this;
    }

    /** Every session of the model {@code sha256} matched native CPU. */
    public ObservedPageAssert modelMatchesNative(String sha256) {
        return match("every session of model " + sha256, v -> sha256.equalsIgnoreCase(v.session().sha256()));
    }

    /** Every session that ran on {@code backend} matched native CPU. */
    public ObservedPageAssert matchesNativeOn(BackendId backend) {
        return match("every session on " + backend.id(), v -> v.session().backend().filter(backend::equals).isPresent());
    }

    private ObservedPageAssert match(String which, Predicate<ObservedVerdict> concerned) {
        isNotNull();
        List<ObservedVerdict> here = actual.verdicts().stream().filter(concerned).toList();
        if (here.isEmpty()) {
            failWithMessage("Expecting %s to match native CPU, but the page made no such session", which);
        }
        List<ObservedVerdict> bad = here.stream().filter(v -> !(v instanceof ObservedVerdict.Judged j && j.status() == Status.PASSED)).toList();
        var unseen = actual.reading().unseen();
        if (!unseen.isEmpty()) {
            // what ran in a worker the observer could not enter is unseen, never taken as matching
            failWithMessage("Expecting %s to match native CPU, but the page had what could not be observed:%n%s", which,
                    String.join(System.lineSeparator(), unseen.stream().map(u -> "  " + u.describe()).toList()));
        }
        if (!bad.isEmpty()) {
            failWithMessage("Expecting %s to match native CPU, but:%n%s", which, String.join(System.lineSeparator(),
                    bad.stream().map(ObservedPageAssert::line).toList()));
        }
        return this;
    }

    private static String line(ObservedVerdict v) {
        String model = v.session().sha256() == null ? "#" + v.session().id() : v.session().sha256().substring(0, 12);
        String verdict = v instanceof ObservedVerdict.Judged j ? j.status() + " on " + j.backend().id() + " (run " + (j.run() + 1) + "), "
                + j.parity().describe() + bisecting(j.bisecting()) : v instanceof ObservedVerdict.Failed f ? "FAILED: " + f.describe()
                : "not judged: " + ((ObservedVerdict.NotJudged) v).reason();
        return "  session " + v.session().id() + " (model " + model + "): " + verdict;
    }

    /** What the bisection of a wrong session said, as the command line's row says it. */
    private static String bisecting(ObservedVerdict.Bisecting b) {
        if (b instanceof ObservedVerdict.Bisecting.NotBisected n) {
            return "; not bisected: " + n.why();
        }
        if (b instanceof ObservedVerdict.Bisecting.Bisected d) {
            return "; " + d.bisection().describe() + (d.reproduced() ? "" : " (of its replay, which diverged otherwise)");
        }
        return "";
    }
}
