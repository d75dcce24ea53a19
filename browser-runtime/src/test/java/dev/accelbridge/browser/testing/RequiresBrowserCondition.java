package dev.accelbridge.browser.testing;

import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.browser.launch.InstalledBrowser;
import dev.accelbridge.core.BrowserKind;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Evaluates {@link RequiresBrowser}: each browser named on the test or its classes is looked for once per JVM. */
public final class RequiresBrowserCondition implements ExecutionCondition {
    private static final Map<BrowserKind, Optional<InstalledBrowser>> FOUND = new ConcurrentHashMap<>();

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        List<BrowserKind> missing = new ArrayList<>();
        for (BrowserKind kind : required(context)) {
            if (FOUND.computeIfAbsent(kind, BrowserDiscovery::find).isEmpty()) {
                missing.add(kind);
            }
        }
        return missing.isEmpty() ? ConditionEvaluationResult.enabled("the browsers it needs are installed")
                : ConditionEvaluationResult.disabled("not installed here: " + missing.stream()
                .map(k -> k.id() + " (looked for " + BrowserDiscovery.describeCandidates(k) + ")").toList());
    }

    /** The browsers the element of {@code context} names, with those its enclosing classes name. */
    static List<BrowserKind> required(ExtensionContext context) {
        List<BrowserKind> kinds = new ArrayList<>();
        context.getElement().flatMap(e -> AnnotationSupport.findAnnotation(e, RequiresBrowser.class))
                .ifPresent(r -> kinds.addAll(List.of(r.value())));
        context.getTestClass().flatMap(c -> AnnotationSupport.findAnnotation(c, RequiresBrowser.class))
                .ifPresent(r -> List.of(r.value()).forEach(k -> {
                    if (!kinds.contains(k)) {
                        kinds.add(k);
                    }
                }));
        return kinds;
    }
}
