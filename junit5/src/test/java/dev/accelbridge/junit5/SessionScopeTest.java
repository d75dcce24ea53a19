package dev.accelbridge.junit5;

import dev.accelbridge.api.AccelbridgeSession;
import dev.accelbridge.run.RunPlan;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ModelFamily;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/** One session per class, or one per engine run; closed with what owns it. Sessions start no browser until a run needs one. */
class SessionScopeTest {
    static final List<AccelbridgeSession> SEEN = new CopyOnWriteArrayList<>();

    @TempDir
    Path dir;

    @BeforeEach
    void clear() {
        SEEN.clear();
    }

    @AccelbridgeTest
    static class First {
        @Test
        void one(AccelbridgeSession session) {
            SEEN.add(session);
        }

        @Test
        void two(AccelbridgeSession session) {
            SEEN.add(session);
        }
    }

    @AccelbridgeTest
    static class Second {
        @Test
        void one(AccelbridgeSession session) {
            SEEN.add(session);
        }
    }

    @AccelbridgeTest(scope = SessionScope.ENGINE)
    static class Declared {
        @Test
        void one(AccelbridgeSession session) {
            SEEN.add(session);
        }
    }

    private EngineExecutionResults run(String scope, Class<?>... classes) {
        EngineTestKit.Builder b = EngineTestKit.engine("junit-jupiter")
                .configurationParameter("accelbridge.db", dir.resolve("matrix.duckdb").toString());
        if (scope != null) {
            b.configurationParameter("accelbridge.session.scope", scope);
        }
        for (Class<?> c : classes) {
            b.selectors(selectClass(c));
        }
        return b.execute();
    }

    @Test
    void oneSessionPerClassByDefaultClosedAfterIt() {
        run(null, First.class, Second.class).testEvents().assertStatistics(s -> s.succeeded(3).failed(0));
        assertThat(SEEN).hasSize(3);
        assertThat(SEEN.get(0)).isSameAs(SEEN.get(1)).isNotSameAs(SEEN.get(2));
        assertClosed(SEEN.get(0));
        assertClosed(SEEN.get(2));
    }

    @Test
    void oneSessionForTheEngineRunWhenConfigured() {
        run("engine", First.class, Second.class).testEvents().assertStatistics(s -> s.succeeded(3));
        assertThat(SEEN).hasSize(3).allSatisfy(s -> assertThat(s).isSameAs(SEEN.get(0)));
        assertClosed(SEEN.get(0));
    }

    @Test
    void theAnnotationWinsOverTheParameter() {
        run("class", Declared.class).testEvents().assertStatistics(s -> s.succeeded(1));
        assertThat(SEEN).hasSize(1);
        assertClosed(SEEN.get(0));
    }

    @Test
    void aBadScopeParameterFailsWithTheAcceptedValues() {
        EngineExecutionResults r = run("method", First.class);
        assertThat(r.testEvents().failed().stream().map(e -> e.getPayload(org.junit.platform.engine.TestExecutionResult.class)
                .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable).map(Throwable::getMessage).orElse("")).toList())
                .hasSize(2).allSatisfy(m -> assertThat(m).contains("accelbridge.session.scope=method").contains("'class' nor 'engine'"));
        assertThat(SEEN).isEmpty();
    }

    private static void assertClosed(AccelbridgeSession s) {
        RunPlan plan = RunPlan.builder().workload(w -> w.optSuites(List.of(ModelFamily.VISION))).targets(t -> t.setBackends(List.of(BackendId.CPU))).build();
        assertThatThrownBy(() -> s.run(plan)).isInstanceOf(AccelbridgeException.class).hasMessageContaining("session is closed");
    }
}
