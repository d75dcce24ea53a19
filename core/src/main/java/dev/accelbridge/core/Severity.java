package dev.accelbridge.core;

/** How bad a {@link Diagnostic} is, most severe first. */
public enum Severity {
    /** The figures cannot be trusted or the case is wrong (wrong output). */
    CRITICAL,
    /** A case failed. */
    ERROR,
    /** A case ran, but not as asked (fallback, unsupported, unavailable, no reference). */
    WARNING,
    /** Worth knowing when reading the figures (software adapter, memory not measurable). */
    INFO;

    /** Lower-case name for JSON and reports. */
    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
