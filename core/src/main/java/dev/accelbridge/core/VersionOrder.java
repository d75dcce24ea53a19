package dev.accelbridge.core;

import org.semver4j.Semver;

import java.util.Comparator;
import java.util.List;

/**
 * The order of runtime and browser versions, by semantic-versioning precedence (semver4j): {@code 1.21.1 <
 * 1.22.0-dev.20250409-89f8206ba4 < 1.22.0 < 1.30.0}, and a browser major {@code 141 < 153}. A text that is not a version at
 * all sorts after every version, by its text. What bisection's ranges, the version views and the reports sort by.
 */
public final class VersionOrder {
    /** Oldest first; null last. */
    public static final Comparator<String> ASCENDING = Comparator.nullsLast(VersionOrder::compare);

    private VersionOrder() {
    }

    /**
     * Compares two versions by precedence: major, minor, patch, then the pre-release as Semantic Versioning 2.0 orders it
     * (a release after its pre-releases; identifier by identifier, numbers numerically, others by their text). semver4j
     * parses; the pre-release is compared here, because its own comparison put onnxruntime-web's dev builds
     * ({@code 1.20.0-dev.20240925-a47254eaef} before {@code 1.20.0-dev.20240821-009209e016}) out of order.
     */
    public static int compare(String a, String b) {
        Semver x = semver(a);
        Semver y = semver(b);
        if (x != null && y != null) {
            int c = Comparator.comparingInt(Semver::getMajor).thenComparingInt(Semver::getMinor).thenComparingInt(Semver::getPatch)
                    .compare(x, y);
            if (c == 0) {
                c = preRelease(x.getPreRelease(), y.getPreRelease());
            }
            return c != 0 ? c : a.compareTo(b);
        }
        if (x != null || y != null) {
            return x != null ? -1 : 1;
        }
        return a.compareTo(b);
    }

    private static int preRelease(List<String> x, List<String> y) {
        if (x.isEmpty() || y.isEmpty()) {
            return Boolean.compare(x.isEmpty(), y.isEmpty()); // the release after its pre-releases
        }
        for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
            String p = x.get(i);
            String q = y.get(i);
            boolean np = p.chars().allMatch(Character::isDigit);
            boolean nq = q.chars().allMatch(Character::isDigit);
            int c = np && nq ? new java.math.BigInteger(p).compareTo(new java.math.BigInteger(q)) : np != nq ? (np ? -1 : 1) : p.compareTo(q);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(x.size(), y.size());
    }

    /** True for a release: a version without a pre-release part ({@code 1.22.0}, not {@code 1.22.0-dev.2025...}). */
    public static boolean isRelease(String v) {
        Semver s = semver(v);
        return s != null && s.getPreRelease().isEmpty();
    }

    /** The versions of {@code all} from {@code from} to {@code to}, both included, oldest first. */
    public static List<String> between(List<String> all, String from, String to) {
        return all.stream().filter(v -> compare(v, from) >= 0 && compare(v, to) <= 0).sorted(ASCENDING).toList();
    }

    private static Semver semver(String v) {
        if (v == null) {
            return null;
        }
        Semver s = Semver.parse(v);
        return s != null ? s : v.chars().allMatch(c -> Character.isDigit(c) || c == '.') && !v.isEmpty() ? Semver.coerce(v) : null;
    }
}
