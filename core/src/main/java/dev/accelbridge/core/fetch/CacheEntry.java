package dev.accelbridge.core.fetch;

import dev.accelbridge.core.Caches;
import dev.accelbridge.core.Untrusted;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One entry of Accelbridge's cache of code fetched at run time (an npm package, an unpacked headless shell, an ONNX
 * Runtime jar): a folder {@code ROOT/KIND/NAME} and, inside it, a record of what the fetch found (its facts, such as the
 * registry's integrity) and the {@link TreeManifest} of every file, made when it was unpacked.
 *
 * <p>At every use ({@link #obtain}) the entry is held to its record before anything in it is served, loaded or executed:
 * every file this user's or root's and writable by nobody else ({@link Ownership}), every file's sha256 the one recorded,
 * and the kind's own check (a tarball's sha512 against the registry's integrity, a jar's SHA-1 against the published
 * one). Within one process an entry already verified is verified again by its files' identity (inode, size, modification
 * and change times: the change time cannot be set back by anyone but root), not rehashed. An entry that fails is put
 * aside and fetched again, once; if the fresh copy fails too the entry cannot be had, and the error names the file and
 * both hashes.
 *
 * <p>A fetch fills a private temporary folder (mode 0700) beside the entry, takes every file over for this user, records
 * the manifest and renames the folder into place in one step, all under a lock per entry (a file lock across processes,
 * a lock within this one): a second process waits and then uses the first one's entry; an interrupted fetch leaves
 * nothing that is ever used. A cache folder another user can write in (or an entry this user cannot replace) is not
 * used: the entry is fetched into a private folder of this user's instead.
 */
public final class CacheEntry {
    /** The record's file name inside an entry. */
    public static final String RECORD = ".accelbridge-entry";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9@][A-Za-z0-9@+._-]{0,199}");

    private final Path root;
    private final String kind;
    private final String name;

    /**
     * Fills a private folder with what the entry holds and returns the facts to record (each a one-line value).
     */
    @FunctionalInterface
    public interface Filler {
        Map<String, String> fill(Path into) throws IOException;
    }

    /** The kind's own check of an entry: why it is not what its facts say, or empty. */
    @FunctionalInterface
    public interface Check {
        Optional<String> problem(Path dir, Map<String, String> facts) throws IOException;

        /** No check beyond the manifest and ownership. */
        Check NONE = (dir, facts) -> Optional.empty();
    }

    /**
     * An entry as it was verified now.
     *
     * @param dir      the entry's folder
     * @param facts    what the fetch recorded
     * @param tree     every file's size and sha256, as made at unpacking and verified now
     * @param fetched  whether it was fetched by this call
     * @param repaired why the copy found in the cache was put aside and fetched again; null when it was not
     */
    public record Verified(Path dir, Map<String, String> facts, TreeManifest tree, boolean fetched, String repaired) {
        /** How {@link #note()} begins. */
        public static final String REFETCHED = "; the cached copy was fetched again: ";

        /** A recorded fact, or null. */
        public String fact(String key) {
            return facts.get(key);
        }

        /** The sha256 of the manifest: one hash naming every file verified. */
        public String manifest() {
            return tree.digest();
        }

        /**
         * What provenance appends to what it says was verified: {@code ; the cached copy was fetched again: WHY}, or "" when
         * the copy was taken as it was (a repair that is said nowhere is a repair nobody can audit).
         */
        public String note() {
            return repaired == null ? "" : REFETCHED + repaired;
        }

        /** The same entry, with why it was not taken from where it was asked for. */
        Verified because(String why) {
            return new Verified(dir, facts, tree, fetched, repaired != null ? repaired : why);
        }
    }

    /**
     * @param root the cache's root ({@link dev.accelbridge.core.Caches#root()})
     * @param kind the kind of entry, a folder of the root ({@code npm}, {@code chromium-shell}, {@code maven})
     * @param name the entry's name ({@code onnxruntime-web@1.22.0})
     */
    public CacheEntry(Path root, String kind, String name) {
        if (!NAME.matcher(kind).matches() || !NAME.matcher(name).matches() || name.contains("..")) {
            throw new IllegalArgumentException("not a cache entry's name: " + Untrusted.quote(kind + "/" + name));
        }
        this.root = root.toAbsolutePath().normalize();
        this.kind = kind;
        this.name = name;
    }

    /** The entry's folder. */
    public Path dir() {
        return root.resolve(kind).resolve(name);
    }

    @Override
    public String toString() {
        return dir().toString();
    }

    /** The entry, verified, when it is in the cache and intact; empty otherwise. Fetches nothing, takes no lock. */
    public Optional<Verified> existing(Check check) {
        try {
            if (locationProblem().isPresent() || !Files.isDirectory(dir(), LinkOption.NOFOLLOW_LINKS)) {
                return Optional.empty();
            }
            EntryRecord r = EntryRecord.verify(dir(), check);
            return r.problem() == null ? Optional.of(r.verified(dir(), false, null)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * The entry, verified: the cached one when intact, else fetched by {@code fill} now (once more when the fresh copy
     * fails its checks).
     *
     * @param what what the entry is, for messages ({@code onnxruntime-web 1.22.0})
     * @throws CacheEntryException when no intact copy can be had; the message names the file and both hashes
     */
    public Verified obtain(String what, Filler fill, Check check) {
        try {
            Optional<String> unsafe = locationProblem();
            if (unsafe.isPresent()) {
                CacheEntry mine = new CacheEntry(privateRoot(), kind, name);
                return mine.obtain(what, fill, check).because("the cache is not private (" + unsafe.get() + "), so it was kept in "
                        + mine.root);
            }
            Files.createDirectories(dir().getParent());
            try (EntryLock ignored = EntryLock.hold(root.resolve(kind).resolve("." + name + ".lock"))) {
                return obtainLocked(what, fill, check);
            }
        } catch (IOException e) {
            throw new CacheEntryException(what + " could not be kept in " + dir() + ": " + Untrusted.reason(
                    e.toString()), "check free space and permissions of " + root);
        }
    }

    private Verified obtainLocked(String what, Filler fill, Check check) throws IOException {
        Path dir = dir();
        removeLeftovers();
        String damaged = null;
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            EntryRecord r = Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) ? EntryRecord.verify(dir, check) : EntryRecord.failed("it is not a folder");
            if (r.problem() == null) {
                return r.verified(dir, false, null);
            }
            damaged = r.problem();
            putAside(dir);
        }
        String last = null;
        for (int attempt = 0; attempt < 2; attempt++) {
            Path tmp = Files.createTempDirectory(dir.getParent(), "." + name + ".partial-");
            try {
                Ownership.makePrivate(tmp); // nobody else can reach it while it fills
                Map<String, String> facts = new LinkedHashMap<>(fill.fill(tmp));
                Ownership.takeOver(tmp);
                TreeManifest m = TreeManifest.of(tmp, EntryRecord.SKIP);
                Optional<String> p = check.problem(tmp, facts);
                if (p.isPresent()) {
                    last = p.get();
                    continue;
                }
                EntryRecord.write(tmp, facts, m);
                if (Ownership.unix()) {
                    Files.setAttribute(tmp, "unix:mode", 0755, LinkOption.NOFOLLOW_LINKS);
                }
                moveIntoPlace(tmp, dir, check);
                EntryRecord r = EntryRecord.verify(dir, check);
                if (r.problem() != null) {
                    last = r.problem();
                    putAside(dir);
                    continue;
                }
                if (damaged != null) {
                    // said where it happens as well as in the provenance of what it served
                    System.getLogger("dev.accelbridge.cache").log(System.Logger.Level.WARNING, "{0} in the cache ({1}) was fetched again: {2}",
                            what, dir, Untrusted.bounded(damaged, 300));
                }
                return r.verified(dir, true, damaged);
            } finally {
                deleteQuietly(tmp);
            }
        }
        throw new CacheEntryException(what + " could not be had intact" + (damaged == null ? "" : ": the cached copy failed its check ("
                + damaged + ") and") + " the copy fetched again failed it too: " + last, "check the source it comes from; the entry is "
                + dir);
    }

    /** Renames the filled folder into place; an entry that appeared meanwhile (a process not honouring the lock) is judged. */
    private void moveIntoPlace(Path tmp, Path dir, Check check) throws IOException {
        try {
            Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, dir);
        } catch (FileSystemException e) {
            // Java reports a folder moved onto a non-empty one as a plain FileSystemException ("Directory not empty")
            if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
                throw e;
            }
            if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) && EntryRecord.verify(dir, check).problem() == null) {
                return; // theirs is intact: ours is dropped
            }
            putAside(dir);
            Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    /** Why the cache's folders are not this user's alone (another user could swap an entry after it was verified), or empty. */
    private Optional<String> locationProblem() throws IOException {
        for (Path d : List.of(root, root.resolve(kind))) {
            if (Files.exists(d, LinkOption.NOFOLLOW_LINKS)) {
                if (Files.isSymbolicLink(d) && d.equals(root.resolve(kind))) {
                    return Optional.of(d + " is a symbolic link");
                }
                Optional<String> p = Ownership.problem(d.toRealPath(), true);
                if (p.isPresent()) {
                    return p;
                }
            }
        }
        return Optional.empty();
    }

    /** This user's private cache ({@code $TMPDIR/accelbridge-UID-cache}, mode 0700), or a fresh private folder. */
    private static Path privateRoot() throws IOException {
        int me = Ownership.currentUid();
        Path p = Path.of(System.getProperty("java.io.tmpdir"), "accelbridge-" + me + "-cache");
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            try {
                Files.createDirectory(p);
                Ownership.makePrivate(p);
            } catch (IOException e) {
                // taken meanwhile: judged below
            }
        }
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) && !Files.isSymbolicLink(p)
                && (!Ownership.unix() || (Ownership.uidOf(p) == me && (Ownership.modeOf(p) & 0077) == 0))) {
            return p;
        }
        Path fresh = Files.createTempDirectory("accelbridge-cache-");
        Ownership.makePrivate(fresh);
        return fresh;
    }

    /** Moves a failed entry out of the way (one rename), then deletes what this user may delete of it. */
    private void putAside(Path dir) throws IOException {
        Path aside = dir.resolveSibling("." + name + ".damaged-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        EntryRecord.forget(dir);
        try {
            Files.move(dir, aside, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new IOException("the damaged entry " + dir + " cannot be moved aside (" + e.getMessage() + ")", e);
        }
        deleteQuietly(aside);
    }

    /** Partial fills and damaged entries of this name: under the lock, none of them is anybody's work in progress. */
    private void removeLeftovers() throws IOException {
        try (var s = Files.list(dir().getParent())) {
            for (Path p : s.filter(p -> {
                String f = p.getFileName().toString();
                return f.startsWith("." + name + ".partial-") || f.startsWith("." + name + ".damaged-");
            }).toList()) {
                deleteQuietly(p);
            }
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Caches.deleteTree(p);
        } catch (IOException ignored) {
            // what cannot be deleted (another user's files) stays under a name nothing ever uses
        }
    }
}
