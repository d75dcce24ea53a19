package dev.accelbridge.core;

/** A backend name that is none of {@link BackendId}'s ids. */
public class UnknownBackendException extends AccelbridgeException {
    /** @param name the name as the user gave it */
    public UnknownBackendException(String name) {
        super("Unknown backend '" + name + "'", "use one of: " + BackendId.validIds());
    }
}
