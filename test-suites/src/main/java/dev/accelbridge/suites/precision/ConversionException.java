package dev.accelbridge.suites.precision;

import dev.accelbridge.suites.SuiteException;

/**
 * A model that cannot be converted to the precision asked for (control-flow sub-graphs, weights in external files,
 * an opset too old for the quantized ops): the variant is UNSUPPORTED for that model, the run goes on.
 */
public final class ConversionException extends SuiteException {
    public ConversionException(String problem, String fix) {
        super(problem, fix);
    }
}
