package dev.accelbridge.tools.archfixture.results;

import java.util.Optional;

/** A row whose part may be absent, as a result's are: the rule's accessor here. */
public record Row(Double figure) {
    /** The figure, if measured. */
    public Optional<Double> timings() {
        return Optional.ofNullable(figure);
    }
}
