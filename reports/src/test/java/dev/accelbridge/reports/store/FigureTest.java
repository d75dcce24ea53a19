package dev.accelbridge.reports.store;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A figure in a record serialised whole is written as {@link ResultJson#num} writes a loose one, whatever its value. */
class FigureTest {
    record Figures(@Figure double finite, @Figure double unknown, @Figure double infinite, @Figure Double absent) {
    }

    @Test
    void aFigureIsANumberNullOrAnInfinitysName() throws Exception {
        String json = ResultJson.MAPPER.writeValueAsString(new Figures(1.5, Double.NaN, Double.NEGATIVE_INFINITY, null));
        assertThat(json).isEqualTo("{\"finite\":1.5,\"unknown\":null,\"infinite\":\"-Infinity\",\"absent\":null}");
        assertThat(json).contains("\"infinite\":" + ResultJson.num(Double.NEGATIVE_INFINITY));
    }
}
