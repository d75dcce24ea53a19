package dev.accelbridge.browser.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/** Finding and ending browser processes this JVM started (directly or through a driver process). */
final class ProcessTrees {
    private ProcessTrees() {
    }

    /**
     * The browser's main process among this JVM's descendants: the one whose command line names our fresh profile
     * ({@code marker}, unique per launch) and that is not a Chromium helper ({@code --type=...}) nor a child of
     * another match. Works the same under Playwright (JVM → node → browser) and Selenium (JVM → chromedriver →
     * browser).
     */
    static Optional<ProcessHandle> findBrowser(String marker, Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            List<ProcessHandle> matches = ProcessHandle.current().descendants()
                    .filter(ph -> ph.info().arguments().map(a -> contains(a, marker) && !isHelper(a)).orElse(false))
                    .toList();
            Set<Long> pids = matches.stream().map(ProcessHandle::pid).collect(Collectors.toSet());
            Optional<ProcessHandle> main = matches.stream()
                    .filter(ph -> ph.parent().map(parent -> !pids.contains(parent.pid())).orElse(true))
                    .findFirst();
            if (main.isPresent() || System.nanoTime() > deadline) {
                return main;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
    }

    private static boolean contains(String[] args, String marker) {
        for (String a : args) {
            if (a.contains(marker)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isHelper(String[] args) {
        for (String a : args) {
            if (a.startsWith("--type=")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Alive and not a zombie: a killed browser whose parent (node, chromedriver) has not reaped it yet still
     * has a /proc entry, and {@link ProcessHandle#isAlive()} says true for it.
     */
    static boolean alive(ProcessHandle ph) {
        if (!ph.isAlive()) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(ph.pid()), "stat"));
            int close = stat.lastIndexOf(')');
            return close < 0 || close + 2 >= stat.length() || stat.charAt(close + 2) != 'Z';
        } catch (IOException | RuntimeException e) {
            return ph.isAlive(); // no /proc (not Linux) or the process just went away
        }
    }

    /** Kills the process and all its descendants hard, then waits (up to {@code wait}) until it is gone. */
    static void killTree(ProcessHandle root, Duration wait) {
        List<ProcessHandle> kids = root.descendants().toList();
        root.destroyForcibly();
        kids.forEach(ProcessHandle::destroyForcibly);
        long deadline = System.nanoTime() + wait.toNanos();
        while (alive(root) && System.nanoTime() < deadline) {
            try {
                root.onExit().get(50, TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException e) {
                // zombie or still exiting: poll again
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
