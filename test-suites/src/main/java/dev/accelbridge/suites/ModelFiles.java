package dev.accelbridge.suites;

import dev.accelbridge.core.PublicApi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The one containment rule for files a model references (its external data, the input files its folder's
 * {@code accelbridge.json} names): resolved to their real path, links followed, they must stay inside the real path of
 * the model's folder. A link that leaves it (to {@code /etc/passwd}, to {@code /proc/self/environ}) makes the model
 * unloadable, natively and in the browser alike, before any runtime or the bridge sees the file. Files the user names on
 * the command line ({@code --input}) are the user's choice and are not held to it. Published: the bridge holds the
 * files it serves to the same rule.
 */
@PublicApi
public final class ModelFiles {
    private ModelFiles() {
    }

    /**
     * The real path of {@code location} relative to {@code folder}.
     *
     * @param what what the file is to the model, for the message ({@code external data}, {@code input file})
     * @throws SuiteException.InvalidModelException when it does not exist or resolves outside the folder
     */
    public static Path inside(Path folder, String location, String what) {
        Path realFolder;
        Path real;
        try {
            realFolder = folder.toRealPath();
        } catch (IOException e) {
            throw new SuiteException.InvalidModelException("The model folder " + folder + " cannot be resolved: " + e.getMessage(),
                    "check the --model path", e);
        }
        Path named = folder.resolve(location);
        try {
            real = named.toRealPath();
        } catch (IOException e) {
            throw new SuiteException.InvalidModelException("The " + what + " '" + location + "' of the model in " + folder
                    + " does not exist (" + e.getClass().getSimpleName() + ")", "put the file beside the model", e);
        }
        if (!real.startsWith(realFolder) || !Files.isRegularFile(real)) {
            throw new SuiteException.InvalidModelException("The " + what + " '" + location + "' of the model in " + folder
                    + " resolves to " + real + ", outside the model's folder" + (Files.isRegularFile(real) ? "" : " or not a file"),
                    "a model's files must stay in its folder: copy the file in, or give an input with --input", null);
        }
        return real;
    }
}
