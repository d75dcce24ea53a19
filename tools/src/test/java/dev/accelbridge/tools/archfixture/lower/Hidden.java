package dev.accelbridge.tools.archfixture.lower;

/** Public for Java (another package of its module uses it), unpublished for the house. */
public final class Hidden {
    private Hidden() {
    }

    public static String name() {
        return "hidden";
    }
}
