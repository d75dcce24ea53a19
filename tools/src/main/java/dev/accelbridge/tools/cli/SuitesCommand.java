package dev.accelbridge.tools.cli;

import dev.accelbridge.run.PlanDefaults;
import dev.accelbridge.run.RunPlan;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.suites.ModelSize;
import dev.accelbridge.suites.SuiteCatalog;
import dev.accelbridge.suites.SuiteOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/** {@code accelbridge suites}: every built-in model's opset, parameter count, ops and shapes. */
@Command(name = "suites", mixinStandardHelpOptions = true,
        description = "Lists the built-in models: family, opset, parameters, approximate MFLOPs, inputs, outputs and ops.")
public final class SuitesCommand implements Callable<Integer> {
    @Option(names = "--size", paramLabel = "SIZE", converter = Converters.Size.class,
            description = "small (default), large or real (the published architectures at their published sizes).")
    ModelSize size = ModelSize.SMALL;

    @Option(names = "--seed", description = "Seed of the generated weights and inputs (default ${DEFAULT-VALUE}).")
    long seed = SuiteOptions.DEFAULT_SEED;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        SuiteCatalog catalog = SuiteCatalog.create(new SuiteOptions(PlanDefaults.modelCache(), size, seed));
        if (json) {
            spec.commandLine().getOut().println(new ObjectMapper().writeValueAsString(catalog.descriptions()));
        } else {
            spec.commandLine().getOut().print(catalog.describe());
        }
        return Main.OK;
    }
}
