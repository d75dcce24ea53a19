package dev.accelbridge.run;

import dev.accelbridge.core.Attempts;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;

import java.util.function.Supplier;

/** {@code --retries}: a FAILED case runs again on a renewed lane; browser and native lanes retry alike. */
final class Retries {
    private Retries() {
    }

    /**
     * Runs {@code attempt}, and again after {@code renew} while it FAILED and retries are left. The result carries its
     * attempts; one that passed on a re-run is flaky ({@link RunResult#flaky()}).
     */
    static RunResult run(int retries, Supplier<RunResult> attempt, Runnable renew, java.util.function.Consumer<String> info) {
        RunResult r = attempt.get();
        Attempts a = Attempts.FIRST;
        while (r.status() == Status.FAILED && a.count() <= retries) {
            a = a.after("attempt " + a.count() + " FAILED: " + r.reason());
            info.accept("retrying " + r.id().row() + " on a fresh page (attempt " + a.count() + " of " + (retries + 1)
                    + ") after: " + r.reason());
            renew.run();
            r = attempt.get();
        }
        return a.count() == 1 ? r : r.withAttempts(a);
    }
}
