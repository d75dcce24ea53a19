package dev.accelbridge.core.fetch;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link CacheEntry}'s lock, held while the entry is verified or filled: this process's first (a file lock is per
 * process, so two threads of one process would both get it), then the lock file's, which another process waits for.
 */
final class EntryLock implements AutoCloseable {
    private static final Map<Path, ReentrantLock> LOCAL = new ConcurrentHashMap<>();

    private final ReentrantLock local;
    private final FileChannel channel;
    private final FileLock lock;

    private EntryLock(ReentrantLock local, FileChannel channel, FileLock lock) {
        this.local = local;
        this.channel = channel;
        this.lock = lock;
    }

    /** Waits for and holds the lock of {@code file} (created when absent, never followed when a link). */
    static EntryLock hold(Path file) throws IOException {
        ReentrantLock local = LOCAL.computeIfAbsent(file, f -> new ReentrantLock());
        local.lock();
        try {
            FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
            try {
                return new EntryLock(local, ch, ch.lock());
            } catch (IOException | RuntimeException e) {
                ch.close();
                throw e;
            }
        } catch (IOException | RuntimeException e) {
            local.unlock();
            throw e;
        }
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
            channel.close();
        } finally {
            local.unlock();
        }
    }
}
