package dev.accelbridge.core.fetch;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

/**
 * Whose fetched code is: the user who runs Accelbridge must own every file it executes or serves, and no other user may
 * be able to change one. A file owned by root is trusted too (root can change anything anyway). On a file system without
 * Unix owners and modes (Windows) nothing here can be said, and every check passes.
 *
 * <p>Why it matters: an archive's entries name an owner, and an unpacker running as root gives each file that owner
 * (npm's {@code tar-fs} does); the headless shell unpacked as root then belonged to uid 1000, who could replace
 * {@code libvulkan.so.1} and have root's next run load it.
 */
public final class Ownership {
    private static final int GROUP_WRITE = 0020;
    private static final int OTHERS_WRITE = 0002;
    private static final int STICKY = 01000;
    private static volatile int[] ids;

    private Ownership() {
    }

    /** Whether this file system has Unix owners and modes. */
    public static boolean unix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("unix");
    }

    /** The user this process runs as (its effective uid): the owner of a file it creates. */
    public static int currentUid() throws IOException {
        return ids()[0];
    }

    /** The group a file this process creates gets (its effective gid). */
    static int currentGid() throws IOException {
        return ids()[1];
    }

    private static int[] ids() throws IOException {
        int[] u = ids;
        if (u == null) {
            Path probe = Files.createTempFile("accelbridge-uid", ".probe");
            try {
                u = new int[] {uidOf(probe), gidOf(probe)};
            } finally {
                Files.deleteIfExists(probe);
            }
            ids = u;
        }
        return u;
    }

    /**
     * Why {@code p} (not followed when a link) is not safe to use: owned by a user other than this one or root, or
     * writable by its group or by others. A folder writable by others with the sticky bit (like {@code /tmp}) is fine
     * when {@code sharedFolderOk}: nobody can then rename or delete what another user put in it.
     */
    public static Optional<String> problem(Path p, boolean sharedFolderOk) throws IOException {
        if (!unix()) {
            return Optional.empty();
        }
        int owner = uidOf(p);
        int me = currentUid();
        if (owner != me && owner != 0) {
            return Optional.of(p + " belongs to uid " + owner + ", not to this user (uid " + me + ") or root");
        }
        int mode = modeOf(p);
        boolean shared = sharedFolderOk && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) && (mode & STICKY) != 0;
        if ((mode & (GROUP_WRITE | OTHERS_WRITE)) != 0 && !shared) {
            return Optional.of(p + " is writable by " + ((mode & OTHERS_WRITE) != 0 ? "every user" : "its group")
                    + String.format(java.util.Locale.ROOT, " (mode %04o)", mode & 07777));
        }
        return Optional.empty();
    }

    /** The first path of the tree under {@code root} (the root included, names in {@code skip} at the root left out) that is not safe. */
    public static Optional<String> treeProblem(Path root, Set<String> skip) throws IOException {
        Optional<String> top = problem(root, false);
        if (top.isPresent() || !unix()) {
            return top;
        }
        for (Path p : TreeManifest.walk(root, skip)) {
            Optional<String> q = problem(p, false);
            if (q.isPresent()) {
                return q;
            }
        }
        return Optional.empty();
    }

    /**
     * Makes every file and folder of {@code root} this user's and not writable by its group or others, as an unpacker
     * should have left them. Links are not followed (a manifest refuses them later).
     *
     * @throws IOException when a file belongs to another user and this one cannot take it over (not root)
     */
    public static void takeOver(Path root) throws IOException {
        if (!unix()) {
            return;
        }
        int me = currentUid();
        int myGid = currentGid();
        java.util.List<Path> all = new java.util.ArrayList<>(TreeManifest.walk(root, Set.of()));
        all.add(0, root);
        for (Path p : all) {
            if (Files.isSymbolicLink(p)) {
                continue;
            }
            if (uidOf(p) != me) {
                try {
                    Files.setAttribute(p, "unix:uid", me, LinkOption.NOFOLLOW_LINKS);
                    Files.setAttribute(p, "unix:gid", myGid, LinkOption.NOFOLLOW_LINKS);
                } catch (IOException | SecurityException e) {
                    throw new IOException(p + " was unpacked as uid " + uidOf(p) + " and this user (uid " + me
                            + ") cannot take it over: " + e.getMessage(), e);
                }
            }
            int mode = modeOf(p);
            if ((mode & (GROUP_WRITE | OTHERS_WRITE)) != 0) {
                Files.setAttribute(p, "unix:mode", mode & 07777 & ~(GROUP_WRITE | OTHERS_WRITE), LinkOption.NOFOLLOW_LINKS);
            }
        }
    }

    /** Makes {@code dir} reachable by this user only (mode 0700). */
    static void makePrivate(Path dir) throws IOException {
        if (unix()) {
            Files.setAttribute(dir, "unix:mode", 0700, LinkOption.NOFOLLOW_LINKS);
        }
    }

    static int uidOf(Path p) throws IOException {
        return ((Number) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS)).intValue();
    }

    private static int gidOf(Path p) throws IOException {
        return ((Number) Files.getAttribute(p, "unix:gid", LinkOption.NOFOLLOW_LINKS)).intValue();
    }

    static int modeOf(Path p) throws IOException {
        return ((Number) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS)).intValue();
    }
}
