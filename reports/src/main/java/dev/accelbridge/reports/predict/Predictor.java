package dev.accelbridge.reports.predict;

import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Predicts the p50 of a model on a backend the store has not measured it on, from what one host did measure. Pure.
 *
 * <p>The model: {@code log p50(model, backend) = μ + a(model) + b(backend)}, fitted by alternating means over every
 * measured (model, backend) pair of the host (the median p50 of the pair's results that ran on the requested backend
 * itself). {@code a} carries what makes a model costly (its FLOPs, its op mix, its batch and precision are all part
 * of the model key); {@code b} is the backend's speed relative to the others on this host. So a prediction needs the
 * model measured on at least one other backend and the backend measured on at least one other model. Its error is
 * measured, not assumed: every measured pair whose model and backend each have another measurement is left out in
 * turn, predicted from the rest, and compared with what was measured.
 */
public final class Predictor {
    private static final int SWEEPS = 50;

    /** One measured pair: model key, configuration (backend and lane), p50. */
    record Point(String model, String config, double p50Ms) {
    }

    private final List<Point> points;

    private Predictor(List<Point> points) {
        this.points = List.copyOf(points);
    }

    /** The configuration label of a result: {@code webgpu [chromium]}, {@code cpu [native]}. */
    public static String config(RunResult r) {
        return r.requested().id() + " [" + r.lane().id() + "]";
    }

    /**
     * A predictor over the results of host {@code hostFingerprint}: every result that executed on its requested
     * backend (PASSED or WRONG_OUTPUT: the time is real either way), the median p50 per (model, configuration).
     */
    public static Predictor of(List<RunResult> results, String hostFingerprint) {
        Map<List<String>, List<Double>> by = new LinkedHashMap<>();
        for (RunResult r : results) {
            // a case that ran on its requested backend and was timed: read by its kind
            if (!hostFingerprint.equals(r.hostFingerprint()) || !(r.outcome() instanceof Outcome.Ran ran) || !(ran.timings().p50Ms() > 0)
                    || ran.backend() != r.requested() || !(r.status() == Status.PASSED || r.status() == Status.WRONG_OUTPUT)) {
                continue;
            }
            by.computeIfAbsent(List.of(r.id().inputKey(), config(r)), k -> new ArrayList<>()).add(ran.timings().p50Ms());
        }
        List<Point> pts = new ArrayList<>();
        by.forEach((k, v) -> pts.add(new Point(k.get(0), k.get(1), median(v))));
        return new Predictor(pts);
    }

    /** The measured pairs it learns from. */
    int size() {
        return points.size();
    }

    /**
     * The prediction for {@code model} (an input key) on {@code config}; empty when the host never measured the model
     * on another backend or the backend on another model (there is nothing to predict from).
     */
    public Optional<Prediction> predict(String model, String config, String host, String hostFingerprint) {
        List<Point> rest = points.stream().filter(p -> !(p.model().equals(model) && p.config().equals(config))).toList();
        Optional<Double> p = estimate(rest, model, config);
        if (p.isEmpty()) {
            return Optional.empty();
        }
        double measured = points.stream().filter(x -> x.model().equals(model) && x.config().equals(config))
                .mapToDouble(Point::p50Ms).findFirst().orElse(Double.NaN);
        int modelN = (int) rest.stream().filter(x -> x.model().equals(model)).count();
        int configN = (int) rest.stream().filter(x -> x.config().equals(config)).count();
        double[] errors = leaveOneOutErrors();
        return Optional.of(new Prediction(model, config, host, hostFingerprint, p.get(), measured, modelN, configN,
                quantile(errors, 0.5), quantile(errors, 0.9), errors.length));
    }

    /** |predicted / measured − 1| for every pair that can be predicted from the others. */
    double[] leaveOneOutErrors() {
        List<Double> out = new ArrayList<>();
        for (Point left : points) {
            List<Point> rest = points.stream().filter(x -> x != left).toList();
            estimate(rest, left.model(), left.config()).ifPresent(p -> out.add(Math.abs(p / left.p50Ms() - 1)));
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** Fits the additive log model to {@code pts} and evaluates it at (model, config), when both were seen. */
    static Optional<Double> estimate(List<Point> pts, String model, String config) {
        Set<String> models = new LinkedHashSet<>();
        Set<String> configs = new LinkedHashSet<>();
        pts.forEach(p -> {
            models.add(p.model());
            configs.add(p.config());
        });
        if (!models.contains(model) || !configs.contains(config)) {
            return Optional.empty();
        }
        double mu = pts.stream().mapToDouble(p -> Math.log(p.p50Ms())).average().orElse(0);
        Map<String, List<Point>> byModel = new HashMap<>();
        Map<String, List<Point>> byConfig = new HashMap<>();
        for (Point p : pts) {
            byModel.computeIfAbsent(p.model(), k -> new ArrayList<>()).add(p);
            byConfig.computeIfAbsent(p.config(), k -> new ArrayList<>()).add(p);
        }
        Map<String, Double> a = new HashMap<>();
        Map<String, Double> b = new HashMap<>();
        models.forEach(m -> a.put(m, 0.0));
        configs.forEach(c -> b.put(c, 0.0));
        for (int it = 0; it < SWEEPS; it++) {
            byModel.forEach((m, ps) -> a.put(m, ps.stream().mapToDouble(p -> Math.log(p.p50Ms()) - mu - b.get(p.config()))
                    .average().orElse(0)));
            byConfig.forEach((c, ps) -> b.put(c, ps.stream().mapToDouble(p -> Math.log(p.p50Ms()) - mu - a.get(p.model()))
                    .average().orElse(0)));
        }
        return Optional.of(Math.exp(mu + a.get(model) + b.get(config)));
    }

    private static double median(List<Double> v) {
        double[] x = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = x.length;
        return n % 2 == 1 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
    }

    static double quantile(double[] v, double q) {
        if (v.length == 0) {
            return Double.NaN;
        }
        double[] x = v.clone();
        Arrays.sort(x);
        double pos = q * (x.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = (int) Math.ceil(pos);
        return x[lo] + (x[hi] - x[lo]) * (pos - lo);
    }
}
