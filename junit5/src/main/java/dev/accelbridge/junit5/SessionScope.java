package dev.accelbridge.junit5;

/** How long an Accelbridge session (and its browsers) lives in a test run. */
public enum SessionScope {
    /** The configuration parameter {@code accelbridge.session.scope} ({@code class} or {@code engine}), else {@link #CLASS}. */
    DEFAULT,
    /** One session per top-level test class, closed after it. */
    CLASS,
    /** One session for every class of the engine run, closed at its end: browsers start once. */
    ENGINE
}
