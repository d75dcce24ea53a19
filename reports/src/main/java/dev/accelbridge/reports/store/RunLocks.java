package dev.accelbridge.reports.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which runs are alive. A run holds an OS file lock ({@code <store>.locks/<runId>}) for as long as its process
 * lives; the OS releases it when the process dies, however it dies. A run still marked running in the store whose
 * lock nobody holds was interrupted. Since a run does not keep the store's file open between cases, another process
 * may open the store meanwhile: this is how it tells a live run from a dead one.
 */
final class RunLocks {
    private static final Map<Path, FileLock> HELD = new ConcurrentHashMap<>();
    private final Path dir;
    private final java.util.Set<String> mine = ConcurrentHashMap.newKeySet();

    RunLocks(Path store) {
        this.dir = store.resolveSibling(store.getFileName() + ".locks");
    }

    /** Takes the lock of {@code runId} for this process (kept until {@link #release} or the process ends). */
    void hold(String runId) {
        try {
            Files.createDirectories(dir);
            Path f = dir.resolve(runId);
            FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock l = ch.tryLock();
            if (l != null) {
                HELD.put(f, l);
                mine.add(runId);
            } else {
                ch.close();
            }
        } catch (IOException | OverlappingFileLockException e) {
            // without a lock file the run is only at risk of being marked interrupted by another process's open
        }
    }

    /** Releases every lock this instance took: its store was closed, so its unfinished runs are over. */
    void releaseAll() {
        for (String r : java.util.List.copyOf(mine)) {
            release(r);
        }
    }

    /**
     * Where the cases of a live run are now ({@code <runId>.progress} beside its lock, replaced whole): the live feed of
     * another process reads it, so progress inside a case needs no store write. Empty {@code json} removes it.
     */
    void writeProgress(String runId, String json) {
        Path f = dir.resolve(runId + ".progress");
        try {
            if (json == null || json.isEmpty()) {
                Files.deleteIfExists(f);
                return;
            }
            Files.createDirectories(dir);
            Path tmp = dir.resolve(runId + ".progress.tmp");
            Files.writeString(tmp, json);
            Files.move(tmp, f, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            // progress is a courtesy: a run goes on without it
        }
    }

    /** What {@link #writeProgress} last wrote for {@code runId}, if anything. */
    java.util.Optional<String> readProgress(String runId) {
        try {
            Path f = dir.resolve(runId + ".progress");
            return Files.isRegularFile(f) ? java.util.Optional.of(Files.readString(f)) : java.util.Optional.empty();
        } catch (IOException e) {
            return java.util.Optional.empty();
        }
    }

    /** Releases the lock of {@code runId} and removes its file. */
    void release(String runId) {
        writeProgress(runId, null);
        mine.remove(runId);
        Path f = dir.resolve(runId);
        FileLock l = HELD.remove(f);
        try {
            if (l != null) {
                l.release();
                l.channel().close();
            }
            Files.deleteIfExists(f);
            try (var s = Files.list(dir)) {
                if (s.findAny().isEmpty()) {
                    Files.deleteIfExists(dir);
                }
            }
        } catch (IOException ignored) {
            // a stale lock file is harmless: nobody holds it, so its run reads as interrupted
        }
    }

    /** True when some live process holds the lock of {@code runId}. */
    boolean alive(String runId) {
        Path f = dir.resolve(runId);
        if (HELD.containsKey(f)) {
            return true;
        }
        if (!Files.exists(f)) {
            return false;
        }
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            FileLock l = ch.tryLock();
            if (l == null) {
                return true;
            }
            l.release();
            return false;
        } catch (OverlappingFileLockException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
