package dev.accelbridge.tools;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.domain.InstanceofCheck;
import dev.accelbridge.core.Scenario;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A scenario is told apart in one place per layer, on the compiled classes of every module: the classes that dispatch on
 * a case's scenario ({@link Scenario#accept}) are one judge and one runner per side, and outside core only code about one
 * scenario alone asks a case's scenario its kind ({@code instanceof}). A new branch on the kind anywhere else fails here,
 * naming the class; a new kind is one more method of {@link Scenario.Cases}, which the compiler asks of exactly these.
 */
class ScenarioDispatchTest {
    /** The layers' one dispatch each: how a case is judged, how the native side and the browser side run it. */
    private static final Set<String> DISPATCHERS = Set.of(
            "dev.accelbridge.run.Judge",
            "dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider",
            "dev.accelbridge.browser.provider.BrowserCase");

    /** Code about one scenario alone, each with why it asks. */
    private static final Map<String, String> ABOUT_ONE_SCENARIO = Map.of(
            "dev.accelbridge.suites.GenerateOptions", "--prompt-tokens and --new-tokens change a generation",
            "dev.accelbridge.suites.GenerationSuite", "the decoder's single steps run only when the suite is named",
            "dev.accelbridge.suites.SuiteCatalog", "an encoder-decoder's generation starts with its encoder's file",
            "dev.accelbridge.suites.precision.Variants", "an encoder-decoder's generation has no converted variant",
            "dev.accelbridge.nativerunner.process.ProcessRuntimeProvider", "a runner process runs single passes only",
            "dev.accelbridge.browser.provider.SentCase", "only a single pass's one run is sent ahead of its case",
            "dev.accelbridge.run.LoadConfirmation", "a refused load is run again at the level that loads it as a single pass only");

    /**
     * Code that reads a generation's own figures from a case's timings ({@code instanceof Decoding} on
     * {@link dev.accelbridge.core.ScenarioFigures}), each with why: the figures are typed per scenario, so who asks is
     * counted here rather than hidden in null checks.
     */
    private static final Map<String, String> READS_GENERATION_FIGURES = Map.ofEntries(
            Map.entry("dev.accelbridge.bridge.hub.RunOutcome", "a page's generation gives the case's timings its figures"),
            Map.entry("dev.accelbridge.run.GenerationJudge", "the tokens' verdict is written into the generation's figures"),
            Map.entry("dev.accelbridge.run.RunAccount", "the teacher-forced pass is its own line of the run's account"),
            Map.entry("dev.accelbridge.reports.recommend.Recommender", "a generation is ranked by tokens per second"),
            Map.entry("dev.accelbridge.reports.recommend.DtypeRecommender", "a dtype's generation is judged by its tokens"),
            Map.entry("dev.accelbridge.reports.render.Comparison", "two generations compare tokens per second"),
            Map.entry("dev.accelbridge.reports.render.GenerationSection", "the report's generation section"),
            Map.entry("dev.accelbridge.reports.render.Views", "a cell shows a generation's TTFT and tokens per second"),
            Map.entry("dev.accelbridge.reports.store.ResultForm", "the result's JSON form has a decoding part"),
            Map.entry("dev.accelbridge.reports.store.ResultInserts", "the store's decoding column"),
            Map.entry("dev.accelbridge.tools.cli.ResultTable", "the CLI's table shows a generation's summary under its row"));

    private static JavaClasses classes;

    @BeforeAll
    static void importEveryModule() {
        classes = ArchitectureTest.mainClasses();
    }

    @Test
    void eachLayerDispatchesOnTheScenarioInOnePlace() {
        assertThat(dispatchers(classes)).isEqualTo(new TreeSet<>(DISPATCHERS));
    }

    @Test
    void outsideCoreOnlyCodeAboutOneScenarioAsksItsKind() {
        assertThat(kindChecks(classes).keySet()).isSubsetOf(ABOUT_ONE_SCENARIO.keySet());
    }

    @Test
    void outsideCoreOnlyTheCountedReadersAskForAGenerationsFigures() {
        assertThat(kindChecks(classes, dev.accelbridge.core.ScenarioFigures.class).keySet())
                .isEqualTo(new TreeSet<>(READS_GENERATION_FIGURES.keySet()));
    }

    /** The top-level classes, outside core, that call {@link Scenario#accept}. */
    static Set<String> dispatchers(JavaClasses cs) {
        Set<String> out = new TreeSet<>();
        for (JavaClass c : cs) {
            for (JavaMethodCall call : c.getMethodCallsFromSelf()) {
                if (call.getTarget().getName().equals("accept") && call.getTargetOwner().isAssignableTo(Scenario.class)
                        && !inCore(c)) {
                    out.add(topLevel(c).getName());
                }
            }
        }
        return out;
    }

    /** The top-level classes, outside core, that check a value's kind against a kind of {@link Scenario}, with where. */
    static Map<String, String> kindChecks(JavaClasses cs) {
        return kindChecks(cs, Scenario.class);
    }

    /** The top-level classes, outside core, that check a value's kind against a kind of the sealed {@code type}, with where. */
    static Map<String, String> kindChecks(JavaClasses cs, Class<?> type) {
        Set<String> kinds = Arrays.stream(type.getPermittedSubclasses()).map(Class::getName).collect(Collectors.toSet());
        Map<String, String> out = new TreeMap<>();
        for (JavaClass c : cs) {
            if (inCore(c)) {
                continue;
            }
            for (InstanceofCheck check : c.getInstanceofChecks()) {
                if (kinds.contains(check.getRawType().getName())) {
                    out.put(topLevel(c).getName(), c.getName() + " line " + check.getLineNumber());
                }
            }
        }
        return out;
    }

    private static boolean inCore(JavaClass c) {
        return c.getPackageName().startsWith("dev.accelbridge.core");
    }

    private static JavaClass topLevel(JavaClass c) {
        JavaClass t = c;
        while (t.getEnclosingClass().isPresent()) {
            t = t.getEnclosingClass().get();
        }
        return t;
    }
}
