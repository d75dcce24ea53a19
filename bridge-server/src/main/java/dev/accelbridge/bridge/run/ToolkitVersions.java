package dev.accelbridge.bridge.run;

import java.util.LinkedHashMap;
import java.util.Map;

/** The toolkit's own version and the JVM's, recorded with every run whoever starts it (the CLI, the Java API). */
public final class ToolkitVersions {
    private ToolkitVersions() {
    }

    /** The toolkit version, from the jar manifest when packaged. */
    public static String toolkit() {
        String v = ToolkitVersions.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0-SNAPSHOT" : v;
    }

    /** Toolkit and JVM versions recorded with every run (providers add theirs to each result's provenance). */
    public static Map<String, String> runtime() {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("accelbridge", toolkit());
        v.put("java", System.getProperty("java.version"));
        return v;
    }
}
