package dev.accelbridge.bridge.cli;

import dev.accelbridge.bridge.run.ToolkitVersions;
import picocli.CommandLine;

/** Version text for {@code --version}: the toolkit and the runtimes it drives. */
final class Versions implements CommandLine.IVersionProvider {
    /** Toolkit and JVM versions recorded with every run. */
    static java.util.Map<String, String> runtime() {
        return ToolkitVersions.runtime();
    }

    @Override
    public String[] getVersion() {
        return new String[] {"accelbridge " + ToolkitVersions.toolkit(), "java " + System.getProperty("java.version")};
    }
}
