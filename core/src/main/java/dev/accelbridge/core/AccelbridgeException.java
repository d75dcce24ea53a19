package dev.accelbridge.core;

/**
 * Root of every Accelbridge error. Unchecked; each layer has its own subclass with specific ones below it.
 * The message names the problem; {@link #fix()} says what the user can do about it. The CLI prints
 * {@code problem — fix} on one line and a stack trace only with {@code --verbose}.
 */
public class AccelbridgeException extends RuntimeException {
    private final String fix;

    /**
     * @param problem what went wrong, naming the input (file, backend, tensor) involved
     * @param fix     what the user should do; may be null when there is nothing to suggest
     */
    public AccelbridgeException(String problem, String fix) {
        super(problem);
        this.fix = fix;
    }

    /** Same, with a cause kept for {@code --verbose}. */
    public AccelbridgeException(String problem, String fix, Throwable cause) {
        super(problem, cause);
        this.fix = fix;
    }

    /** What the user should do, or null. */
    public String fix() {
        return fix;
    }

    /** Problem and fix on one line, as the CLI prints it. */
    public String oneLine() {
        return fix == null || fix.isBlank() ? getMessage() : getMessage() + " — " + fix;
    }
}
