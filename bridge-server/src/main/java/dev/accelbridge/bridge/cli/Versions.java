package dev.accelbridge.bridge.cli;

import picocli.CommandLine;

/** Version text for {@code --version}: the toolkit and the runtimes it drives. */
final class Versions implements CommandLine.IVersionProvider {
    /** The toolkit version, from the jar manifest when packaged. */
    static String toolkit() {
        String v = Versions.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0-SNAPSHOT" : v;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"accelbridge " + toolkit(), "java " + System.getProperty("java.version")};
    }
}
