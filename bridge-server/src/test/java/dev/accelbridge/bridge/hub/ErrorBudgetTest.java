package dev.accelbridge.bridge.hub;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** A connection's protocol errors a minute (pure, on a clock of the test's own). */
class ErrorBudgetTest {
    @Test
    void pastItsBudgetAConnectionIsClosedOnceThenIgnoredAndAQuietMinuteRenewsIt() {
        AtomicLong now = new AtomicLong();
        ErrorBudget b = new ErrorBudget(now::get);
        for (int i = 0; i < ErrorBudget.MAX; i++) {
            assertThat(b.spend()).isEqualTo(ErrorBudget.Spend.ANSWER);
        }
        assertThat(b.spend()).isEqualTo(ErrorBudget.Spend.CLOSE);
        assertThat(b.spend()).isEqualTo(ErrorBudget.Spend.IGNORE);
        now.addAndGet(TimeUnit.MINUTES.toNanos(2));
        assertThat(b.spend()).as("closed stays closed").isEqualTo(ErrorBudget.Spend.IGNORE);
        ErrorBudget late = new ErrorBudget(now::get);
        for (int i = 0; i < ErrorBudget.MAX; i++) {
            late.spend();
        }
        now.addAndGet(TimeUnit.SECONDS.toNanos(61));
        assertThat(late.spend()).as("a page's late answers spread over minutes").isEqualTo(ErrorBudget.Spend.ANSWER);
    }
}
