package dev.accelbridge.bridge.cli;

import picocli.CommandLine;

/** Version text for {@code --version}: the toolkit and the runtimes it drives. */
final class Versions implements CommandLine.IVersionProvider {
    /** The toolkit version, from the jar manifest when packaged. */
    static String toolkit() {
        String v = Versions.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0-SNAPSHOT" : v;
    }

    /** Toolkit and JVM versions recorded with every run (providers add theirs to each result's provenance). */
    static java.util.Map<String, String> runtime() {
        java.util.Map<String, String> v = new java.util.LinkedHashMap<>();
        v.put("accelbridge", toolkit());
        v.put("java", System.getProperty("java.version"));
        return v;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"accelbridge " + toolkit(), "java " + System.getProperty("java.version")};
    }
}
