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

    /** Compares two versions by precedence. */
    public static int compare(String a, String b) {
        Semver x = semver(a);
        Semver y = semver(b);
        if (x != null && y != null) {
            int c = x.compareTo(y);
            return c != 0 ? c : a.compareTo(b);
        }
        if (x != null || y != null) {
            return x != null ? -1 : 1;
        }
        return a.compareTo(b);
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
