package dev.accelbridge.tools.cli;

/**
 * What the terminal the commands write to can take: whether a person watches it (a progress bar, colour) and how wide
 * a table may be. A pipe, a CI log, {@code NO_COLOR} or {@code TERM=dumb} get plain lines.
 */
final class Terminal {
    /** The widest a table row is printed (long reasons are cut; their full text is in the report). */
    static final int WIDTH = 160;

    private Terminal() {
    }

    /** A console, and not a CI job (whose log is a file however it is shown). */
    static boolean interactive() {
        return System.console() != null && System.getenv("CI") == null;
    }

    /** Colour only where a person reads it and did not ask for none. */
    static boolean colour() {
        return interactive() && System.getenv("NO_COLOR") == null && !"dumb".equals(System.getenv("TERM"));
    }
}
