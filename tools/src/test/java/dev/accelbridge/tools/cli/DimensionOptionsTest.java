package dev.accelbridge.tools.cli;

import dev.accelbridge.core.Dimension;
import dev.accelbridge.core.Dimensions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

/** Each dimension a run sweeps names the option that sweeps it, and {@code accelbridge run} has that option. */
class DimensionOptionsTest {
    @Test
    void everyDeclaredFlagIsAnOptionOfRun() {
        CommandLine.Model.CommandSpec run = new CommandLine(new RunCommand()).getCommandSpec();
        assertThat(Dimensions.all().stream().map(Dimension::flag).filter(f -> f != null))
                .containsExactly("--suites", "--model", "--precision", "--batch-sizes", "--backends", "--browser", "--runtime-option",
                        "--browser", "--ort-web", "--ort", "--engines"); // the browser's major rides on --browser NAME@MAJOR
        for (Dimension<?> d : Dimensions.all()) {
            if (d.flag() != null) {
                assertThat(run.findOption(d.flag())).as(d.name() + " " + d.flag()).isNotNull();
            }
        }
        assertThat(run.findOption("--batch")).isNull(); // the check can fail: an option run does not have
    }
}
