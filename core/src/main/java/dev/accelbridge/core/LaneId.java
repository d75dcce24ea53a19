package dev.accelbridge.core;

/**
 * Where a case executes, as a dimension of the matrix: natively in this process, or in a typed browser. The
 * browser's build is provenance, not identity, so a browser update does not cut a cell's history (that is
 * exactly when a user wants the comparison).
 *
 * @param browser the browser, or null for the native lane
 */
public record LaneId(BrowserKind browser) {
    /** The native lane (DJL / ONNX Runtime in this process). */
    public static final LaneId NATIVE = new LaneId(null);

    /** The lane of one browser. */
    public static LaneId of(BrowserKind browser) {
        return browser == null ? NATIVE : new LaneId(browser);
    }

    /** True for the native lane. */
    public boolean isNative() {
        return browser == null;
    }

    /** {@code native} or the browser id ({@code chromium}). */
    public String id() {
        return browser == null ? "native" : browser.id();
    }

    /** Reads {@link #id()}; null, empty and {@code native} are the native lane. */
    public static LaneId parse(String id) {
        if (id == null || id.isBlank() || id.equals("native")) {
            return NATIVE;
        }
        return of(BrowserKind.fromName(id));
    }

    @Override
    public String toString() {
        return id();
    }
}
