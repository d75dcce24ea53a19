package dev.accelbridge.tools.archfixture.lower.api;

/** Published by its package's name. */
public final class Door {
    public String open() {
        return "open";
    }
}
