package dev.accelbridge.core.fetch;

import dev.accelbridge.core.Untrusted;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The record inside a {@link CacheEntry} ({@value CacheEntry#RECORD}): what the fetch found (its facts) and the
 * {@link TreeManifest} of every file, written once when the entry is filled and read at every use; and whether the entry
 * holds to it. Within one process an entry verified once is verified again by its files' identity, not rehashed.
 *
 * @param facts    what the fetch recorded, or null when the record cannot be read
 * @param manifest every file's sha256, or null when the record cannot be read
 * @param problem  why the entry does not hold to its record, or null when it does
 */
record EntryRecord(Map<String, String> facts, TreeManifest manifest, String problem) {
    private static final String MAGIC = "accelbridge-entry 1";
    /** What a manifest of the entry leaves out: the record itself. */
    static final Set<String> SKIP = Set.of(CacheEntry.RECORD);
    private static final Pattern KEY = Pattern.compile("[A-Za-z][A-Za-z0-9.-]{0,63}");
    /** Entries verified in this process, by their files' identity when they were. */
    private static final Map<Path, List<String>> VERIFIED = new ConcurrentHashMap<>();

    /** An entry that cannot hold to any record, for {@code why}. */
    static EntryRecord failed(String why) {
        return new EntryRecord(null, null, why);
    }

    /** The entry at {@code dir} as its record says it is, with {@code check}'s own judgement of it. */
    static EntryRecord verify(Path dir, CacheEntry.Check check) throws IOException {
        Optional<String> own = Ownership.treeProblem(dir, Set.of());
        if (own.isPresent()) {
            return failed(own.get());
        }
        Path record = dir.resolve(CacheEntry.RECORD);
        if (!Files.isRegularFile(record, LinkOption.NOFOLLOW_LINKS)) {
            return failed("it holds no record of what was unpacked (an interrupted fetch, or one made before entries were verified)");
        }
        Map<String, String> facts = new LinkedHashMap<>();
        TreeManifest m;
        try {
            List<String> lines = Files.readAllLines(record, StandardCharsets.UTF_8);
            if (lines.isEmpty() || !lines.get(0).equals(MAGIC)) {
                return failed("its record is not one Accelbridge wrote");
            }
            for (String l : lines) {
                if (l.startsWith("@")) {
                    int sp = l.indexOf(' ');
                    facts.put(sp < 0 ? l.substring(1) : l.substring(1, sp), sp < 0 ? "" : l.substring(sp + 1));
                }
            }
            m = TreeManifest.parse(lines);
        } catch (IOException e) {
            return failed("its record cannot be read: " + e.getMessage());
        }
        List<String> snapshot = snapshot(dir);
        if (snapshot.equals(VERIFIED.get(dir))) {
            return new EntryRecord(facts, m, null);
        }
        Optional<String> p = m.mismatch(dir, SKIP);
        if (p.isEmpty()) {
            p = check.problem(dir, facts);
        }
        if (p.isPresent()) {
            VERIFIED.remove(dir);
            return new EntryRecord(facts, m, p.get());
        }
        VERIFIED.put(dir, snapshot);
        return new EntryRecord(facts, m, null);
    }

    /** The entry at {@code dir} as a verified one (this record holds). */
    CacheEntry.Verified verified(Path dir, boolean fetched, String repaired) {
        return new CacheEntry.Verified(dir, Map.copyOf(facts), manifest, fetched, repaired);
    }

    /** Forgets that {@code dir} was verified (it is being put aside). */
    static void forget(Path dir) {
        VERIFIED.remove(dir);
    }

    /** Writes the record of a filled entry: its facts (each a one-line value under a plain name) and its manifest. */
    static void write(Path dir, Map<String, String> facts, TreeManifest m) throws IOException {
        StringBuilder b = new StringBuilder(MAGIC).append('\n');
        facts.forEach((k, v) -> {
            if (!KEY.matcher(k).matches()) {
                throw new IllegalArgumentException("not a fact's name: " + Untrusted.quote(k));
            }
            b.append('@').append(k).append(' ').append(Untrusted.reason(v)).append('\n');
        });
        b.append(m.text());
        Files.writeString(dir.resolve(CacheEntry.RECORD), b.toString(), StandardCharsets.UTF_8);
    }

    /** Every path's identity: what changes, even by a writer that restores the bytes and times, when a file is touched. */
    private static List<String> snapshot(Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        for (Path p : TreeManifest.walk(dir, Set.of())) {
            out.add(dir.relativize(p) + " " + (Ownership.unix()
                    ? Files.readAttributes(p, "unix:ino,size,lastModifiedTime,ctime,mode,uid,nlink", LinkOption.NOFOLLOW_LINKS)
                    : Files.readAttributes(p, "size,lastModifiedTime,fileKey", LinkOption.NOFOLLOW_LINKS)));
        }
        return out;
    }
}
