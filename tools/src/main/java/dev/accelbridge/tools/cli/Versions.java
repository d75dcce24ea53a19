package dev.accelbridge.tools.cli;

import dev.accelbridge.run.ToolkitVersions;
import picocli.CommandLine;

/** Version text for {@code --version}: the toolkit and the runtimes it drives. */
final class Versions implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {"accelbridge " + ToolkitVersions.toolkit(), "java " + System.getProperty("java.version")};
    }
}
