package dev.accelbridge.junit5;

import dev.accelbridge.browser.page.OrtWebEngineAxis;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.SamplingDepth;
import dev.accelbridge.fallback.Chain;
import dev.accelbridge.fallback.Chains;
import dev.accelbridge.run.RunPlan;
import dev.accelbridge.suites.FeedOptions;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * What one {@link Backends} method asks for, read from its annotations (the method's first, then its class's and the
 * enclosing classes'), as a {@link RunPlan}: the requested backends plus native cpu (the reference), each alone or along
 * its default chain.
 *
 * @param requested the backends the method's invocations are for, in the order given
 * @param browsers  the browsers of the browser backends
 * @param plan      the plan the session runs
 */
record TemplateSpec(List<BackendId> requested, List<BrowserKind> browsers, RunPlan plan) {
    /** The configuration parameter that turns bisection of wrong outputs off ({@code false}); on by default, as for the CLI. */
    static final String BISECT = "accelbridge.bisect";

    static TemplateSpec of(ExtensionContext ctx) {
        Method m = ctx.getRequiredTestMethod();
        Backends backends = AnnotationSupport.findAnnotation(m, Backends.class).orElseThrow();
        try {
            List<BackendId> requested = requested(backends);
            List<BrowserKind> browsers = find(ctx, Browsers.class).map(b -> Arrays.stream(b.value()).map(BrowserKind::parse)
                    .distinct().toList()).orElse(List.of(BrowserKind.CHROMIUM));
            // each annotation maps onto its group of the plan, as the CLI's option mixins do
            RunPlan.Builder plan = RunPlan.builder();
            targets(ctx, backends, requested, browsers, plan);
            model(ctx, m, plan);
            tolerance(ctx, plan);
            sampling(ctx, plan);
            return new TemplateSpec(requested, browsers, plan.build());
        } catch (AccelbridgeException e) {
            throw new ExtensionConfigurationException(e.oneLine() + " (on " + m.getDeclaringClass().getSimpleName() + "."
                    + m.getName() + ")", e);
        }
    }

    /** The backends {@code @Backends} names, each once, in the order given: at least one. */
    private static List<BackendId> requested(Backends backends) {
        List<BackendId> requested = Arrays.stream(backends.value()).map(BackendId::parse).distinct().toList();
        if (requested.isEmpty()) {
            throw new AccelbridgeException("@Backends names no backend", "give at least one of: " + BackendId.validIds());
        }
        return requested;
    }

    /**
     * Where the cases run: the requested backends plus native cpu, each alone unless {@code @Backends} asks for its
     * fallback chain, on the given browsers and the {@code @Engine}'s onnxruntime-web engine; bisection as configured.
     */
    private static void targets(ExtensionContext ctx, Backends backends, List<BackendId> requested, List<BrowserKind> browsers,
                                RunPlan.Builder plan) {
        List<BackendId> planned = new ArrayList<>(requested);
        if (!planned.contains(BackendId.CPU)) {
            planned.add(BackendId.CPU); // the reference, and the base of timesNative()
        }
        Chains chains = backends.fallback() ? Chains.defaults() : Chains.defaults().with(requested.stream().map(Chain::of).toList());
        plan.targets(t -> t.setBackends(planned).optBrowsers(browsers).optChains(chains))
                .drillDown(d -> d.optBisect(!"false".equalsIgnoreCase(ctx.getConfigurationParameter(BISECT).orElse("true"))));
        find(ctx, Engine.class).ifPresent(e -> plan.targets(t -> t.optVersions(OrtWebEngineAxis.DIMENSION.name(), List.of(e.value()))));
    }

    /** The workload {@code @Model} names: exactly one of a built-in suite and a path that exists. */
    private static void model(ExtensionContext ctx, Method m, RunPlan.Builder plan) {
        Model model = find(ctx, Model.class).orElseThrow(() -> new AccelbridgeException("No @Model on " + m.getName()
                + " or its class", "add @Model(\"path/to/model\") or @Model(suite = \"vision\")"));
        if (model.value().isBlank() == model.suite().isBlank()) {
            throw new AccelbridgeException("@Model needs exactly one of a path and a suite, got " + (model.value().isBlank()
                    ? "neither" : "both"), "give @Model(\"path/to/model\") or @Model(suite = \"vision\")");
        }
        if (!model.suite().isBlank()) {
            ModelFamily f = ModelFamily.parse(model.suite());
            if (f == ModelFamily.OTHER) {
                throw new AccelbridgeException("'other' is not a built-in suite", "use @Model(suite = \"text\"), \"vision\" or \"audio\"");
            }
            plan.workload(w -> w.optSuites(List.of(f)));
        } else {
            Path p = Path.of(model.value());
            if (!Files.exists(p)) {
                throw new AccelbridgeException("@Model path " + p.toAbsolutePath() + " does not exist",
                        "give a model folder or .onnx file relative to " + Path.of("").toAbsolutePath());
            }
            plan.workload(w -> w.optUserModels(List.of(p)).optSuites(List.of()));
        }
    }

    /** {@code @Tolerance}'s bound for the feed, when given: a finite positive number. */
    private static void tolerance(ExtensionContext ctx, RunPlan.Builder plan) {
        Optional<Tolerance> tol = find(ctx, Tolerance.class);
        if (tol.isPresent()) {
            double t = tol.get().value();
            if (!(t > 0) || Double.isInfinite(t)) {
                throw new AccelbridgeException("@Tolerance must be a positive number, got " + t, "e.g. @Tolerance(2e-3)");
            }
            plan.workload(w -> w.optFeed(FeedOptions.none().withTolerance(t)));
        }
    }

    /** {@code @Iterations}' sampling, when given; a negative duration leaves the plan's default. */
    private static void sampling(ExtensionContext ctx, RunPlan.Builder plan) {
        find(ctx, Iterations.class).ifPresent(i -> plan.sampling(s -> {
            s.optIterations(i.value()).optWarmups(i.warmups()).optDepth(SamplingDepth.parse(i.sampling()));
            if (i.minDuration() >= 0) {
                s.optMinDuration(java.time.Duration.ofNanos(Math.round(i.minDuration() * 1e9)));
            }
            if (i.warmupDuration() >= 0) {
                s.optWarmupDuration(java.time.Duration.ofNanos(Math.round(i.warmupDuration() * 1e9)));
            }
        }));
    }

    /** The annotation on the method, else on its class or an enclosing class. */
    private static <A extends Annotation> Optional<A> find(ExtensionContext ctx, Class<A> type) {
        Optional<A> onMethod = AnnotationSupport.findAnnotation(ctx.getRequiredTestMethod(), type);
        if (onMethod.isPresent()) {
            return onMethod;
        }
        for (Class<?> c = ctx.getRequiredTestClass(); c != null; c = c.getEnclosingClass()) {
            Optional<A> a = AnnotationSupport.findAnnotation(c, type);
            if (a.isPresent()) {
                return a;
            }
        }
        return Optional.empty();
    }
}
