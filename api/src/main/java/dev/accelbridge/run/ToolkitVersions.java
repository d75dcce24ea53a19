package dev.accelbridge.run;

import dev.accelbridge.core.PublicApi;
import java.util.LinkedHashMap;
import java.util.Map;

/** The toolkit's own version and the JVM's, recorded with every run whoever starts it (the CLI, the Java API). */
@PublicApi
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
        jit().ifPresent(j -> v.put("jit", j));
        return v;
    }

    /**
     * The JIT's tier cap when it is not the JVM's default ({@code c1}: the CLI's launcher stops at the first tier, which
     * cuts a short run's wall by about a fifth on two cores; the Java glue timed around a native run is then slower, about
     * 0.3 µs of a 5 µs one-op case), so a figure says how its JVM ran; empty for a default JVM.
     */
    static java.util.Optional<String> jit() {
        try {
            var bean = java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            String level = bean == null ? null : bean.getVMOption("TieredStopAtLevel").getValue();
            return level == null || level.equals("4") ? java.util.Optional.empty()
                    : java.util.Optional.of(level.equals("1") ? "c1" : "tier " + level);
        } catch (RuntimeException e) {
            return java.util.Optional.empty(); // not HotSpot: its default
        }
    }
}
