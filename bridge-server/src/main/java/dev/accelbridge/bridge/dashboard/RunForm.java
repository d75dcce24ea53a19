package dev.accelbridge.bridge.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.bridge.run.PlanDefaults;
import dev.accelbridge.bridge.run.RunPlan;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Dimensions;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Precision;

import java.nio.file.Path;

import java.util.ArrayList;
import java.util.List;

/**
 * The dashboard's "start a run" form, as the page posts it ({@code POST /api/runs}); it becomes a {@link RunPlan}
 * through the plan's builder, which the launched run reads back ({@code run --plan}).
 *
 * @param suites     suites ({@code text}, {@code vision}, {@code audio}); empty with models: only the models
 * @param models     model paths on the server (a folder or an .onnx file)
 * @param backends   requested backends
 * @param browsers   browsers
 * @param iterations timed iterations, or null for the default
 * @param warmups    warm-up iterations, or null for the default
 * @param precisions precisions, empty for fp32
 * @param batchSizes batch sizes, empty for the model's own
 */
public record RunForm(List<String> suites, List<String> models, List<String> backends, List<String> browsers,
                      Integer iterations, Integer warmups, List<String> precisions, List<String> batchSizes) {
    public RunForm {
        suites = clean(suites);
        models = clean(models);
        backends = clean(backends);
        browsers = clean(browsers);
        precisions = clean(precisions);
        batchSizes = clean(batchSizes);
    }

    /**
     * Reads the posted JSON object; lists may be arrays or comma-separated strings.
     *
     * @throws AccelbridgeException when the body is not such an object
     */
    public static RunForm parse(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new AccelbridgeException("The run request is not a JSON object", "post {\"suites\":[\"text\"],\"backends\":[\"wasm\",\"cpu\"]}");
        }
        return new RunForm(list(body, "suites"), list(body, "models"), list(body, "backends"), list(body, "browsers"),
                integer(body, "iterations"), integer(body, "warmups"), list(body, "precisions"), list(body, "batchSizes"));
    }

    /**
     * The plan this form stands for, with {@code accelbridge run}'s defaults where the form is silent (every backend and
     * browser, the lanes this host affords): the page, the CLI and {@code --resume} share one plan type and one validation.
     *
     * @throws AccelbridgeException naming the field whose value is not understood, or the plan's own refusal
     */
    public RunPlan plan() {
        RunPlan.Builder b = RunPlan.builder()
                .setBackends(backends.isEmpty() ? PlanDefaults.backends(false) : backends.stream().map(BackendId::parse).toList())
                .optSuites(suites.isEmpty() ? null : suites.stream().map(ModelFamily::parse).toList())
                .optUserModels(models.stream().map(Path::of).toList())
                .optBrowserSpecs(browsers.isEmpty() ? PlanDefaults.browsers() : browsers.stream().map(dev.accelbridge.core.BrowserSpec::parse).toList())
                .optParallel(PlanDefaults.parallel());
        if (iterations != null) {
            b.optIterations(iterations);
        }
        if (warmups != null) {
            b.optWarmups(warmups);
        }
        if (!precisions.isEmpty()) {
            b.optPrecisions(precisions.stream().map(Precision::parse).toList());
        }
        if (!batchSizes.isEmpty()) {
            b.optBatchSizes(batchSizes.stream().map(Dimensions.BATCH_SIZE::parse).toList());
        }
        return b.build();
    }

    private static List<String> clean(List<String> l) {
        if (l == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String s : l) {
            if (s != null) {
                for (String p : s.split(",")) {
                    if (!p.isBlank()) {
                        out.add(p.trim());
                    }
                }
            }
        }
        return List.copyOf(out);
    }

    private static List<String> list(JsonNode body, String field) {
        JsonNode n = body.get(field);
        if (n == null || n.isNull()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        if (n.isArray()) {
            n.forEach(x -> out.add(x.asText()));
        } else {
            out.add(n.asText());
        }
        return out;
    }

    private static Integer integer(JsonNode body, String field) {
        JsonNode n = body.get(field);
        if (n == null || n.isNull() || (n.isTextual() && n.asText().isBlank())) {
            return null;
        }
        if (n.canConvertToInt() || (n.isTextual() && n.asText().trim().matches("-?\\d{1,9}"))) {
            return n.isTextual() ? Integer.parseInt(n.asText().trim()) : n.asInt();
        }
        throw new AccelbridgeException("The run request's " + field + " is not a whole number: " + n, "give " + field + " as a number");
    }
}
