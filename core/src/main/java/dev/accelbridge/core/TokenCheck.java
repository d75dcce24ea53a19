package dev.accelbridge.core;

/**
 * What a generation's greedy tokens were checked against, so a figure says no more than was checked: the native CPU
 * reference's tokens ("verified", an independent reference), the run's own first generation (the reference itself:
 * "repeated", which shows a runtime that does not repeat itself but proves nothing about its tokens), or nothing.
 */
public enum TokenCheck {
    /** Not checked: before the verdict, or with no reference to check against. */
    NONE("not checked", "not checked"),
    /** Against the native CPU reference's tokens. */
    REFERENCE("verified", "not verified"),
    /** The reference itself: each generation against its own first. */
    OWN_FIRST("repeated", "not repeated");

    private final String held;
    private final String broken;

    TokenCheck(String held, String broken) {
        this.held = held;
        this.broken = broken;
    }

    /** The word for {@code verified} of {@code generations} generations: "verified", "not repeated", "not checked". */
    public String word(int verified, int generations) {
        return this == NONE || generations == 0 ? NONE.held : verified == generations ? held : broken;
    }
}
