package dev.accelbridge.bridge.run;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.suites.ModelFolderLoader;
import dev.accelbridge.suites.ModelLoad;
import dev.accelbridge.suites.ModelSize;
import dev.accelbridge.suites.SuiteCatalog;
import dev.accelbridge.suites.SuiteOptions;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The models of a plan, loaded before anything runs: the suites' cases, and every user model found under each
 * {@code --model} path. A user model that cannot be read or fed is kept as a {@link ModelLoad} with its problem (its
 * rows say so and the run goes on); a path that does not exist, or a {@code --input}/{@code --shape} naming an
 * input no model has, is bad input and refused here.
 *
 * @param cases  the cases to run
 * @param broken the user models with a problem
 */
public record ModelSet(List<ModelCase> cases, List<ModelLoad> broken) {
    public ModelSet {
        cases = List.copyOf(cases);
        broken = List.copyOf(broken);
    }

    /**
     * Loads the plan's models.
     *
     * @throws AccelbridgeException for bad input: a missing path, an input name no model has, nothing to run
     */
    public static ModelSet load(RunPlan plan) {
        List<ModelCase> cases = new ArrayList<>();
        List<ModelLoad> broken = new ArrayList<>();
        if (!plan.suites().isEmpty()) {
            SuiteCatalog catalog = SuiteCatalog.create(new SuiteOptions(plan.modelCache(),
                    plan.largeModels() ? ModelSize.LARGE : ModelSize.SMALL, plan.seed()));
            for (ModelFamily f : plan.suites()) {
                cases.addAll(catalog.cases(f));
            }
        }
        Set<String> inputNames = new LinkedHashSet<>();
        for (Path p : plan.userModels()) {
            for (ModelLoad m : ModelFolderLoader.loadAll(p, plan.userFamily(), plan.feed())) {
                if (m.broken()) {
                    broken.add(m);
                } else {
                    cases.addAll(m.cases());
                }
                inputNames.addAll(m.inputNames());
            }
        }
        Set<String> named = new LinkedHashSet<>(plan.feed().inputs().keySet());
        named.addAll(plan.feed().shapes().keySet());
        for (String n : named) {
            if (!inputNames.contains(n)) {
                throw new AccelbridgeException("--input/--shape " + n + " names no input of the models given (their inputs: "
                        + inputNames + ")", "use an input name of one of the models");
            }
        }
        if (cases.isEmpty() && broken.isEmpty()) {
            throw new AccelbridgeException("Nothing to run: the suites and models given have no cases",
                    "give --suites text,vision,audio or --model PATH");
        }
        return new ModelSet(cases, broken);
    }
}
