package dev.accelbridge.browser.provider;

import dev.accelbridge.bridge.hub.LoadedSession;
import dev.accelbridge.bridge.hub.PageJobException;
import dev.accelbridge.bridge.hub.PageSessions;
import dev.accelbridge.core.BackendException;
import dev.accelbridge.core.DiagnosedLoadException;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.LoadDiagnosis;
import dev.accelbridge.core.OrtStatusCode;
import dev.accelbridge.core.UnsupportedModelException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Why onnxruntime-web refused to load a model in the page ({@link LoadDiagnosis}, the rule native ONNX Runtime's refusals
 * are diagnosed by too): the session is made again in the same page at each lower graph-optimization level until one
 * loads, then released. Only a refusal the optimizer can cause is retried ({@link OrtStatusCode#optimizable()}: a failure
 * or a runtime exception while the session was made); a file it cannot parse, an op it lacks or an
 * invalid graph fails the same at every level and is not retried.
 */
final class PageLoadDiagnostician {
    private PageLoadDiagnostician() {
    }

    /**
     * The case's load failure {@code e}, diagnosed where a lower level loads the model: a {@link DiagnosedLoadException},
     * else {@code e} as it was.
     *
     * @param runtime the page's runtime as a diagnosis names it ({@code onnxruntime-web 1.30.0})
     * @param where   the case's place, as its other failures end ({@code  [chromium 156 via playwright, ...]})
     */
    static RuntimeException diagnosed(RuntimeException e, SentCase c, String runtime, Duration timeout, String where) {
        if (!(e instanceof ExecutionFailedException f) || e instanceof UnsupportedModelException || f.phase() != BackendException.Phase.LOAD
                || !(f.getCause() instanceof PageJobException pj) || OrtStatusCode.ofSessionRefusal(pj.getMessage()).filter(OrtStatusCode::optimizable).isEmpty()) {
            return e;
        }
        String level = PageOptions.graphOptimizationLevel(c.options);
        List<String> failing = new ArrayList<>(List.of(level));
        for (String lower : LoadDiagnosis.below(level)) {
            Boolean loads = loadsAt(c, lower, timeout);
            if (loads == null) {
                return e; // the page did not answer: nothing is known below
            }
            if (loads) {
                LoadDiagnosis d = LoadDiagnosis.of(runtime, failing, lower, pj.getMessage());
                return new DiagnosedLoadException("Session creation failed: model '" + c.request.modelCase().model().name() + "' "
                        + d.sentence() + " (" + pj.getMessage() + ")" + where, d, e);
            }
            failing.add(lower);
        }
        return e;
    }

    /** Whether the page loads the case's session at {@code level} (released at once); null when the page did not answer. */
    private static Boolean loadsAt(SentCase c, String level, Duration timeout) {
        try {
            LoadedSession s = c.loadAt(level, timeout).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            PageSessions.of(c.page).release(s.sessionId(), Duration.ofSeconds(10));
            return true;
        } catch (ExecutionException x) {
            return x.getCause() instanceof PageJobException ? false : null;
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            return null;
        } catch (TimeoutException | RuntimeException x) {
            return null;
        }
    }
}
