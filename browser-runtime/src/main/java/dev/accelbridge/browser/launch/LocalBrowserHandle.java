package dev.accelbridge.browser.launch;

import dev.accelbridge.core.BrowserKind;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What every locally started browser shares: the main process found by its fresh profile, hard kill of the
 * process tree, and close = graceful ({@link #closeGracefully}) then hard after {@link #GRACE}, then the profile
 * folder deleted.
 */
abstract class LocalBrowserHandle implements BrowserHandle {
    /** How long a graceful close may take before the browser is killed. */
    static final Duration GRACE = Duration.ofSeconds(3);
    private static final Duration KILL_WAIT = Duration.ofSeconds(5);

    private final BrowserKind browser;
    private final DriverKind driver;
    private final String version;
    private final Path executable;
    private final Path profile;
    private final ProcessHandle process;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ProcessTreeMemory memory;

    LocalBrowserHandle(BrowserKind browser, DriverKind driver, String version, Path executable, Path profile,
                       ProcessHandle process) {
        this.browser = browser;
        this.driver = driver;
        this.version = version;
        this.executable = executable;
        this.profile = profile;
        this.process = process;
        this.memory = process == null ? null : new ProcessTreeMemory(process.pid());
    }

    /** The tree's resident memory, in all and by type, its process list kept between samples ({@link ProcessTreeMemory}). */
    @Override
    public java.util.Optional<TreeMemory> treeMemory() {
        return memory == null ? java.util.Optional.empty() : memory.sampleByType();
    }

    @Override
    public BrowserKind browser() {
        return browser;
    }

    @Override
    public DriverKind driver() {
        return driver;
    }

    @Override
    public String version() {
        return version;
    }

    @Override
    public String executable() {
        return executable.toString();
    }

    /** The fresh profile folder of this launch (deleted by {@link #close()}). */
    Path profile() {
        return profile;
    }

    @Override
    public boolean isAlive() {
        return process != null ? ProcessTrees.alive(process) : aliveWithoutPid();
    }

    /** Liveness when the main process could not be identified; by default unknown = false. */
    boolean aliveWithoutPid() {
        return false;
    }

    @Override
    public OptionalLong pid() {
        return process == null ? OptionalLong.empty() : OptionalLong.of(process.pid());
    }

    /** The main browser process, when identified. */
    Optional<ProcessHandle> process() {
        return Optional.ofNullable(process);
    }

    @Override
    public void kill() {
        if (process != null) {
            ProcessTrees.killTree(process, KILL_WAIT);
        }
    }

    /** Ends the browser the driver's way (Playwright context close, WebDriver quit, SIGTERM). */
    abstract void closeGracefully() throws Exception;

    /** Releases what the driver holds after the browser is gone (driver service, ...). Must not block long. */
    void release() {
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            CompletableFuture<Void> graceful = CompletableFuture.runAsync(() -> {
                try {
                    closeGracefully();
                } catch (Exception e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
            }, r -> {
                Thread t = new Thread(r, "accelbridge-close-" + browser.id());
                t.setDaemon(true);
                t.start();
            });
            try {
                graceful.get(GRACE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException e) {
                // hung or failed: fall through to the hard kill
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            kill();
            release();
        } finally {
            Profiles.delete(profile);
        }
    }

    @Override
    public String toString() {
        return browser + " " + version + " via " + driver + " (" + executable + (process == null ? "" : ", pid " + process.pid()) + ")";
    }
}
