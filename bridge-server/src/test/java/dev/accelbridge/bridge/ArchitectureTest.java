package dev.accelbridge.bridge;

import dev.accelbridge.core.PublicApi;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The house as docs/architecture.md draws it, checked on the main sources of every module: imports point down the
 * floors, a module reaches another only through its published surface (core, a package named {@code api}, or a type
 * marked {@link PublicApi}), and no main class passes 400 lines.
 */
class ArchitectureTest {
    private static final Path ROOT = Path.of("..");

    /** Each module, its root package, and the modules it may import from. */
    private static final Map<String, Module> MODULES = new LinkedHashMap<>();

    private record Module(String pkg, Set<String> mayUse) {
    }

    static {
        MODULES.put("core", new Module("dev.accelbridge.core", Set.of()));
        MODULES.put("test-suites", new Module("dev.accelbridge.suites", Set.of("core")));
        MODULES.put("native-runner", new Module("dev.accelbridge.nativerunner", Set.of("core", "test-suites")));
        MODULES.put("browser-runtime", new Module("dev.accelbridge.browser", Set.of("core", "test-suites")));
        MODULES.put("fallback", new Module("dev.accelbridge.fallback", Set.of("core")));
        MODULES.put("reports", new Module("dev.accelbridge.reports", Set.of("core")));
        MODULES.put("bridge-server", new Module("dev.accelbridge.bridge", Set.of("core", "test-suites", "native-runner",
                "browser-runtime", "fallback", "reports")));
        MODULES.put("junit5", new Module("dev.accelbridge.junit5", Set.of("core", "test-suites", "native-runner",
                "browser-runtime", "fallback", "reports", "bridge-server")));
    }

    /** Generated code a module publishes as it is (ONNX's protobuf classes). */
    private static final String GENERATED = "dev.accelbridge.suites.onnx.proto.";

    private static final Pattern IMPORT = Pattern.compile("^import (dev\\.accelbridge\\.[\\w.]+);", Pattern.MULTILINE);

    @Test
    void importsPointDownAndReachOtherModulesOnlyThroughTheirPublishedSurface() throws Exception {
        List<String> wrong = new ArrayList<>();
        for (var e : MODULES.entrySet()) {
            for (Path f : mainSources(e.getKey())) {
                Matcher m = IMPORT.matcher(Files.readString(f));
                while (m.find()) {
                    String imported = m.group(1);
                    String owner = ownerOf(imported);
                    if (owner == null || owner.equals(e.getKey())) {
                        continue;
                    }
                    if (!e.getValue().mayUse().contains(owner)) {
                        wrong.add(f + ": imports " + imported + " from " + owner + ", a module it may not use");
                    } else if (!published(imported)) {
                        wrong.add(f + ": imports " + imported + ", which " + owner + " does not publish");
                    }
                }
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void noMainClassPassesFourHundredLines() throws Exception {
        List<String> long_ = new ArrayList<>();
        for (String module : MODULES.keySet()) {
            for (Path f : mainSources(module)) {
                long lines = Files.readAllLines(f).size();
                if (lines > 400) {
                    long_.add(f + ": " + lines + " lines");
                }
            }
        }
        assertThat(long_).isEmpty();
    }

    @Test
    void theCheckRefusesWhatItShould() throws Exception {
        assertThat(published("dev.accelbridge.bridge.api.RunRequest")).isTrue();
        assertThat(published("dev.accelbridge.core.CaseId")).isTrue();
        assertThat(published("dev.accelbridge.reports.store.MatrixStore")).isTrue();
        assertThat(published("dev.accelbridge.bridge.run.RunOrchestrator")).isFalse();
        assertThat(published("dev.accelbridge.reports.store.ResultRows")).isFalse();
        assertThat(ownerOf("dev.accelbridge.browser.bridge.PageHub")).isEqualTo("browser-runtime");
        assertThat(MODULES.get("reports").mayUse()).doesNotContain("bridge-server");
    }

    private static boolean published(String imported) {
        if (imported.startsWith("dev.accelbridge.core.") || imported.contains(".api.") || imported.startsWith(GENERATED)) {
            return true;
        }
        String name = imported;
        while (name.contains(".")) {
            try {
                Class<?> c = Class.forName(name, false, ArchitectureTest.class.getClassLoader());
                for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
                    if (k.isAnnotationPresent(PublicApi.class)) {
                        return true;
                    }
                }
                return false;
            } catch (ClassNotFoundException e) {
                // a nested type is Outer$Inner: try the outer one's name
                name = name.substring(0, name.lastIndexOf('.'));
            }
        }
        return false;
    }

    private static String ownerOf(String imported) {
        return MODULES.entrySet().stream().filter(e -> imported.startsWith(e.getValue().pkg() + "."))
                .map(Map.Entry::getKey).findFirst().orElse(null);
    }

    private static List<Path> mainSources(String module) throws IOException {
        Path dir = ROOT.resolve(module).resolve("src/main/java");
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }
}
