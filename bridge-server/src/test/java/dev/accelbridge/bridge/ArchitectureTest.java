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
 * marked {@link PublicApi}), what a published type shows names only published types, and no main class passes 400
 * lines.
 */
class ArchitectureTest {
    private static final Path ROOT = Path.of("..");

    /** Each module, its root package, and the modules it may import from. */
    private static final Map<String, Module> MODULES = new LinkedHashMap<>();

    private record Module(List<String> pkgs, Set<String> mayUse) {
        Module(String pkg, Set<String> mayUse) {
            this(List.of(pkg), mayUse);
        }
    }

    static {
        MODULES.put("core", new Module("dev.accelbridge.core", Set.of()));
        MODULES.put("test-suites", new Module("dev.accelbridge.suites", Set.of("core")));
        MODULES.put("native-runner", new Module("dev.accelbridge.nativerunner", Set.of("core", "test-suites")));
        MODULES.put("browser-runtime", new Module("dev.accelbridge.browser", Set.of("core", "test-suites")));
        MODULES.put("fallback", new Module("dev.accelbridge.fallback", Set.of("core")));
        MODULES.put("reports", new Module("dev.accelbridge.reports", Set.of("core")));
        MODULES.put("api", new Module(List.of("dev.accelbridge.bridge.api", "dev.accelbridge.bridge.run", "dev.accelbridge.bridge.bisect"),
                Set.of("core", "test-suites", "native-runner", "browser-runtime", "fallback", "reports")));
        // the tools (CLI, dashboard) stand on the API; nothing stands on them
        MODULES.put("bridge-server", new Module("dev.accelbridge.bridge", Set.of("core", "test-suites", "native-runner",
                "browser-runtime", "fallback", "reports", "api")));
        MODULES.put("junit5", new Module("dev.accelbridge.junit5", Set.of("core", "test-suites", "native-runner",
                "browser-runtime", "fallback", "reports", "api")));
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
    void noMainClassPassesThreeHundredFiftyLines() throws Exception {
        List<String> long_ = new ArrayList<>();
        for (String module : MODULES.keySet()) {
            for (Path f : mainSources(module)) {
                long lines = Files.readAllLines(f).size();
                if (lines > 350) {
                    long_.add(f + ": " + lines + " lines");
                }
            }
        }
        assertThat(long_).isEmpty();
    }

    /**
     * What a published type shows (its public constructors, methods and fields, its public nested types, their generic
     * arguments) names only published types: an import check cannot see that a published method hands out an internal
     * type, which a user's program then depends on.
     */
    @Test
    void publishedSignaturesNameOnlyPublishedTypes() throws Exception {
        List<String> wrong = new ArrayList<>();
        for (String module : MODULES.keySet()) {
            if (module.equals("junit5")) {
                continue; // above this module: not on its class path (its surface is annotations and assertions over the API)
            }
            for (Path f : mainSources(module)) {
                String rel = ROOT.resolve(module).resolve("src/main/java").relativize(f).toString();
                if (rel.endsWith("package-info.java")) {
                    continue;
                }
                Class<?> c = Class.forName(rel.substring(0, rel.length() - ".java".length()).replace('/', '.'), false,
                        ArchitectureTest.class.getClassLoader());
                shown(c, wrong);
            }
        }
        assertThat(wrong).isEmpty();
    }

    private static void shown(Class<?> c, List<String> wrong) {
        if (!java.lang.reflect.Modifier.isPublic(c.getModifiers()) || !published(c)) {
            return;
        }
        List<java.lang.reflect.Type> types = new ArrayList<>();
        for (var k : c.getDeclaredConstructors()) {
            if (java.lang.reflect.Modifier.isPublic(k.getModifiers())) {
                types.addAll(List.of(k.getGenericParameterTypes()));
            }
        }
        for (var m : c.getDeclaredMethods()) {
            if (java.lang.reflect.Modifier.isPublic(m.getModifiers()) && !m.isSynthetic()) {
                types.add(m.getGenericReturnType());
                types.addAll(List.of(m.getGenericParameterTypes()));
            }
        }
        for (var fl : c.getDeclaredFields()) {
            if (java.lang.reflect.Modifier.isPublic(fl.getModifiers())) {
                types.add(fl.getGenericType());
            }
        }
        if (c.getGenericSuperclass() != null) {
            types.add(c.getGenericSuperclass());
        }
        types.addAll(List.of(c.getGenericInterfaces()));
        java.util.Set<String> named = new java.util.TreeSet<>();
        types.forEach(t -> classesIn(t, named));
        for (String n : named) {
            if (n.startsWith("dev.accelbridge.") && !published(n.replace('$', '.'))) {
                wrong.add(c.getName() + " shows " + n + ", which is not published");
            }
        }
        for (Class<?> inner : c.getDeclaredClasses()) {
            shown(inner, wrong);
        }
    }

    private static void classesIn(java.lang.reflect.Type t, java.util.Set<String> out) {
        if (t instanceof Class<?> k) {
            Class<?> e = k;
            while (e.isArray()) {
                e = e.getComponentType();
            }
            out.add(e.getName());
        } else if (t instanceof java.lang.reflect.ParameterizedType p) {
            classesIn(p.getRawType(), out);
            for (var a : p.getActualTypeArguments()) {
                classesIn(a, out);
            }
        } else if (t instanceof java.lang.reflect.GenericArrayType g) {
            classesIn(g.getGenericComponentType(), out);
        } else if (t instanceof java.lang.reflect.WildcardType w) {
            for (var b : w.getUpperBounds()) {
                classesIn(b, out);
            }
            for (var b : w.getLowerBounds()) {
                classesIn(b, out);
            }
        }
    }

    private static boolean published(Class<?> c) {
        return published(c.getName().replace('$', '.'));
    }

    @Test
    void theCheckRefusesWhatItShould() throws Exception {
        assertThat(published("dev.accelbridge.bridge.api.RunRequest")).isTrue();
        assertThat(published("dev.accelbridge.core.CaseId")).isTrue();
        assertThat(published("dev.accelbridge.reports.store.MatrixStore")).isTrue();
        assertThat(published("dev.accelbridge.bridge.run.RunOrchestrator")).isFalse();
        assertThat(published("dev.accelbridge.reports.store.ResultRows")).isFalse();
        assertThat(ownerOf("dev.accelbridge.browser.bridge.hub.PageHub")).isEqualTo("browser-runtime");
        assertThat(MODULES.get("reports").mayUse()).doesNotContain("bridge-server");
        assertThat(ownerOf("dev.accelbridge.bridge.run.RunPlan")).isEqualTo("api");
        assertThat(ownerOf("dev.accelbridge.bridge.cli.Main")).isEqualTo("bridge-server");
        assertThat(MODULES.get("junit5").mayUse()).contains("api").doesNotContain("bridge-server");
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

    /** The module whose package is the longest prefix of {@code imported} (the API's packages sit under the tools'). */
    private static String ownerOf(String imported) {
        String owner = null;
        int longest = -1;
        for (var e : MODULES.entrySet()) {
            for (String pkg : e.getValue().pkgs()) {
                if (imported.startsWith(pkg + ".") && pkg.length() > longest) {
                    owner = e.getKey();
                    longest = pkg.length();
                }
            }
        }
        return owner;
    }

    private static List<Path> mainSources(String module) throws IOException {
        Path dir = ROOT.resolve(module).resolve("src/main/java");
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }
}
