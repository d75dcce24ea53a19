package dev.accelbridge.core;

/** The backend is not present on this host or in this browser; the message is the probe's evidence. */
public class BackendUnavailableException extends BackendException {
    public BackendUnavailableException(String evidence, String fix) {
        super(Phase.PROBE, evidence, fix, null);
    }

    @Override
    public Status status() {
        return Status.UNAVAILABLE;
    }
}
