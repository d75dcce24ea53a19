package dev.accelbridge.tools;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMethodCall;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A result's parts are read by its outcome's kind ({@code switch}/{@code instanceof} on {@code RunResult.outcome()}), not by
 * unwrapping the {@code Optional} accessors that stand for it: an unwrap compiles where the part is absent and throws at
 * run time, and {@code r.timings() == null} compiles and is always false. The rule finds an {@code Optional.orElseThrow()}
 * or {@code get()} on the line of (or the line after, for a chain broken over two lines) a call of one of those accessors,
 * in every main class but the readers named in {@link #ALLOWED}, each with why.
 */
final class ResultUnwraps {
    /** The accessors that hand a result's parts out as {@code Optional}s, by their owner. */
    static final Map<String, Set<String>> ACCESSORS = Map.of(
            "dev.accelbridge.core.RunResult", Set.of("actual", "timings", "parity", "correctness", "fp32Parity", "fidelity", "figuresOf"),
            "dev.accelbridge.core.Outcome", Set.of("ranOn", "timed", "compared"));

    /** The readers that may unwrap, each with why: the published API's own views and the JUnit assertions. */
    static final Map<String, String> ALLOWED = Map.of(
            "dev.accelbridge.api.CaseResult", "the published view users read in their own tests: each getter says in its Javadoc that "
                    + "it throws where the part is absent, and checks the kind first",
            "dev.accelbridge.junit5.CaseResultAssert", "the JUnit assertions: an absent part is the assertion's failure, said as one");

    private ResultUnwraps() {
    }

    /** Each unwrap of a result's accessors outside {@link #ALLOWED}: where it is and which accessor it unwraps. */
    static List<String> of(JavaClasses classes) {
        return of(classes, ACCESSORS);
    }

    /** Each unwrap of {@code accessors} (by their owner) outside {@link #ALLOWED}. */
    static List<String> of(JavaClasses classes, Map<String, Set<String>> accessors) {
        List<String> out = new ArrayList<>();
        for (JavaClass c : classes) {
            String top = c.getName().contains("$") ? c.getName().substring(0, c.getName().indexOf('$')) : c.getName();
            if (ALLOWED.containsKey(top)) {
                continue;
            }
            for (JavaCodeUnit u : c.getCodeUnits()) {
                TreeSet<Integer> unwraps = new TreeSet<>();
                for (JavaMethodCall call : u.getMethodCallsFromSelf()) {
                    if (call.getTargetOwner().isEquivalentTo(Optional.class) && Set.of("orElseThrow", "get").contains(call.getName())) {
                        unwraps.add(call.getLineNumber());
                    }
                }
                for (JavaMethodCall call : u.getMethodCallsFromSelf()) {
                    Set<String> names = accessors.get(call.getTargetOwner().getName());
                    int line = call.getLineNumber();
                    if (names != null && names.contains(call.getName()) && (unwraps.contains(line) || unwraps.contains(line + 1))) {
                        out.add(u.getFullName() + " unwraps " + call.getTargetOwner().getSimpleName() + "." + call.getName() + "() ("
                                + c.getSource().map(s -> s.getFileName().orElse("?")).orElse("?") + ":" + line + "): switch on its outcome");
                    }
                }
            }
        }
        return out.stream().distinct().sorted().toList();
    }
}
