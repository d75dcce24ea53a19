package dev.accelbridge.browser.launch;

import dev.accelbridge.core.Caches;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a launch started outside the JVM's own reach (a virtual display, a driver, the browser under it, and the profile
 * folder they write into), so that nothing of a run outlives it: a JVM stopped by SIGTERM (timeout, CI, systemd) ends every
 * live lease in a shutdown hook; a JVM killed outright (kill -9) leaves its lease file in the user's cache
 * ({@code launches/}), and the next launch of the same user ends what it lists and says so ({@link #reapOrphans}). A process
 * is ended only when its pid still has the start time recorded for it, so a pid the system gave to another program since is
 * left alone; a profile folder is deleted only when it is one Accelbridge makes (in the temp folder, named {@code accelbridge-}).
 */
final class LaunchLeases {
    private static final Logger LOG = LoggerFactory.getLogger(LaunchLeases.class);
    private static final AtomicLong NEXT = new AtomicLong();
    private static final Set<Lease> LIVE = ConcurrentHashMap.newKeySet();
    private static final ProcessHandle SELF = ProcessHandle.current();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Lease::end), "accelbridge-launch-leases"));
    }

    private LaunchLeases() {
    }

    /** Where the leases of this user's runs are kept. */
    static Path folder() {
        return Caches.root().resolve("launches");
    }

    /** A lease for {@code what} ({@code webkit}), its profile folder and the processes it started, written at once. */
    static Lease take(String what, Path profile, ProcessHandle... roots) {
        Lease l = new Lease(what, profile, folder().resolve(SELF.pid() + "-" + NEXT.incrementAndGet() + ".lease"));
        for (ProcessHandle r : roots) {
            l.add(r);
        }
        LIVE.add(l);
        return l;
    }

    /**
     * Ends what runs of this user that are gone (killed outright) left: every process their leases list that still runs
     * with its recorded start, and their profile folders. Returns what was ended, one line each (also logged).
     */
    static List<String> reapOrphans() {
        List<String> ended = new ArrayList<>();
        Path dir = folder();
        if (!Files.isDirectory(dir)) {
            return ended;
        }
        List<Path> leases;
        try (var s = Files.list(dir)) {
            leases = s.filter(p -> p.getFileName().toString().endsWith(".lease")).toList();
        } catch (IOException e) {
            return ended;
        }
        for (Path f : leases) {
            Record r = Record.read(f).orElse(null);
            if (r == null || r.ownerAlive()) {
                continue;
            }
            List<String> gone = new ArrayList<>();
            r.pids().forEach((pid, start) -> ProcessHandle.of(pid).filter(h -> startOf(h).equals(start)).ifPresent(h -> {
                gone.add(h.info().command().map(c -> Path.of(c).getFileName().toString()).orElse("process") + " (pid " + pid + ")");
                ProcessTrees.killTree(h, Duration.ofSeconds(2));
            }));
            boolean profile = r.profile() != null && ours(r.profile()) && Files.exists(r.profile());
            if (profile) {
                Profiles.delete(r.profile());
            }
            deleteQuietly(f);
            if (!gone.isEmpty() || profile) {
                String line = "ended what an earlier run (pid " + r.owner() + ", stopped without closing its " + r.what() + " lane) left: "
                        + (gone.isEmpty() ? "no process" : String.join(", ", gone)) + (profile ? "; deleted its profile " + r.profile() : "");
                LOG.warn(line);
                ended.add(line);
            }
        }
        return ended;
    }

    /** A profile folder Accelbridge made: in the temp folder, named {@code accelbridge-...}. */
    private static boolean ours(Path p) {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize();
        Path a = p.toAbsolutePath().normalize();
        return a.getParent() != null && a.getParent().equals(tmp) && a.getFileName().toString().startsWith("accelbridge-");
    }

    /** A process's start, as recorded ("-" where the system does not say). */
    private static String startOf(ProcessHandle h) {
        return h.info().startInstant().map(i -> Long.toString(i.toEpochMilli())).orElse("-");
    }

    private static void deleteQuietly(Path f) {
        try {
            Files.deleteIfExists(f);
        } catch (IOException e) {
            // a lease that cannot be deleted is tried again by the next run
        }
    }

    /** One launch's lease: kept in memory for the shutdown hook and on disk for the next run. */
    static final class Lease {
        private final String what;
        private final Path profile;
        private final Path file;
        private final Map<Long, ProcessHandle> processes = new LinkedHashMap<>();

        private Lease(String what, Path profile, Path file) {
            this.what = what;
            this.profile = profile;
            this.file = file;
        }

        /** Adds {@code root} and the processes below it now (a browser its driver started), and writes the lease again. */
        synchronized Lease add(ProcessHandle root) {
            if (root != null) {
                processes.put(root.pid(), root);
                root.descendants().forEach(d -> processes.put(d.pid(), d));
            }
            write();
            return this;
        }

        private void write() {
            StringBuilder b = new StringBuilder();
            b.append("owner ").append(SELF.pid()).append(' ').append(startOf(SELF)).append('\n');
            b.append("what ").append(what).append('\n');
            if (profile != null) {
                b.append("profile ").append(profile.toAbsolutePath()).append('\n');
            }
            processes.values().forEach(h -> b.append("pid ").append(h.pid()).append(' ').append(startOf(h)).append('\n'));
            try {
                Files.createDirectories(file.getParent());
                Path part = file.resolveSibling(file.getFileName() + ".part");
                Files.writeString(part, b, StandardCharsets.UTF_8);
                Files.move(part, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                LOG.warn("could not record launch lease {}: {}", file, e.toString());
            }
        }

        /** Ends every process of the lease and deletes its profile (the shutdown hook's work). */
        void end() {
            List<ProcessHandle> all;
            synchronized (this) {
                all = new ArrayList<>(processes.values());
            }
            all.forEach(h -> ProcessTrees.killTree(h, Duration.ofSeconds(2)));
            if (profile != null) {
                Profiles.delete(profile);
            }
            close();
        }

        /** The launch was closed as it should be: the lease is gone. */
        void close() {
            LIVE.remove(this);
            deleteQuietly(file);
        }
    }

    /** A lease as read back from its file. */
    private record Record(long owner, String ownerStart, String what, Path profile, Map<Long, String> pids) {
        static Optional<Record> read(Path f) {
            try {
                long owner = -1;
                String ownerStart = "-";
                String what = "browser";
                Path profile = null;
                Map<Long, String> pids = new LinkedHashMap<>();
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    String[] p = line.split(" ", 3);
                    switch (p[0]) {
                        case "owner" -> {
                            owner = Long.parseLong(p[1]);
                            ownerStart = p.length > 2 ? p[2] : "-";
                        }
                        case "what" -> what = p.length > 1 ? p[1] : what;
                        case "profile" -> profile = p.length > 1 ? Path.of(line.substring("profile ".length())) : null;
                        case "pid" -> pids.put(Long.parseLong(p[1]), p.length > 2 ? p[2] : "-");
                        default -> {
                            // a line this version does not know: ignored
                        }
                    }
                }
                return owner < 0 ? Optional.empty() : Optional.of(new Record(owner, ownerStart, what, profile, pids));
            } catch (IOException | RuntimeException e) {
                return Optional.empty(); // unreadable: left for its owner, or a later version
            }
        }

        boolean ownerAlive() {
            return ProcessHandle.of(owner).filter(h -> startOf(h).equals(ownerStart)).isPresent();
        }
    }
}
