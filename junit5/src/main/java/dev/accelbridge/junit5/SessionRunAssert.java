package dev.accelbridge.junit5;

import dev.accelbridge.api.SessionRun;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Precision;
import dev.accelbridge.reports.recommend.DtypeRecommendation;
import org.assertj.core.api.AbstractAssert;

import java.util.List;
import java.util.stream.Collectors;

/**
 * AssertJ assertions on a whole run, for what no single case says: which dtype variant of a model to ship to a backend
 * ({@code assertThat(run).dtypeWithin(WEBGPU, 0.99)}). A failure message carries every recommendation concerned, with what
 * each skipped and why.
 */
public final class SessionRunAssert extends AbstractAssert<SessionRunAssert, SessionRun> {

    SessionRunAssert(SessionRun actual) {
        super(actual, SessionRunAssert.class);
    }

    /**
     * On {@code backend}, in every lane it ran, some dtype variant of every model run in more than one keeps its
     * user-visible output at least {@code minCosine} to fp32 native and has no defect (its verdict against its own native
     * run).
     */
    public SessionRunAssert dtypeWithin(BackendId backend, double minCosine) {
        List<DtypeRecommendation> here = on(backend, minCosine);
        List<DtypeRecommendation> none = here.stream().filter(r -> r.best() == null).toList();
        if (!none.isEmpty()) {
            fail("a dtype within cosine " + minCosine + " of fp32 native on " + backend.id() + ", but: " + lines(none));
        }
        return this;
    }

    /** On {@code backend}, in every lane it ran, the variant to ship within {@code minCosine} is {@code precision}. */
    public SessionRunAssert recommendsDtype(BackendId backend, Precision precision, double minCosine) {
        List<DtypeRecommendation> here = on(backend, minCosine);
        List<DtypeRecommendation> other = here.stream().filter(r -> r.best() == null || r.best().precision() != precision).toList();
        if (!other.isEmpty()) {
            fail("to ship " + precision.id() + " on " + backend.id() + " (within cosine " + minCosine + "), but: " + lines(other));
        }
        return this;
    }

    private List<DtypeRecommendation> on(BackendId backend, double minCosine) {
        isNotNull();
        List<DtypeRecommendation> here = actual.dtypes(minCosine).stream().filter(r -> r.backend().equals(backend.id())).toList();
        if (here.isEmpty()) {
            fail("a model run in more than one dtype on " + backend.id() + ", but the run has none there");
        }
        return here;
    }

    private void fail(String expectation) {
        failWithMessage("%s", "Expecting " + expectation);
    }

    private static String lines(List<DtypeRecommendation> recs) {
        return recs.stream().map(r -> r.model() + ": " + r.describe()).collect(Collectors.joining("; "));
    }
}
