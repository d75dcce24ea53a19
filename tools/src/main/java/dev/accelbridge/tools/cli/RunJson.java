package dev.accelbridge.tools.cli;

import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.render.JsonRenderer;
import dev.accelbridge.reports.store.ResultJson;

import java.util.List;

/**
 * {@code accelbridge run --json}: one object per case, the one JSON form of a result ({@link ResultJson#result})
 * with the fields every derived form adds ({@link JsonRenderer#derived}: score, grade, speed against native CPU).
 * Missing figures are {@code null}, never a placeholder number.
 */
final class RunJson {
    private RunJson() {
    }

    static String array(List<RunResult> results) {
        return JsonRenderer.results(results).toString();
    }
}
