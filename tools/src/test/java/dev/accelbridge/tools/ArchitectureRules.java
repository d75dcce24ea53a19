package dev.accelbridge.tools;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaGenericArrayType;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaParameterizedType;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.domain.JavaWildcardType;
import dev.accelbridge.core.PublicApi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The house rules of docs/architecture.md, applied to compiled classes: a reference is whatever a class file names (an
 * import, a name written inline, a lambda's body, a nested class), so a fully qualified name in the middle of a method
 * counts as an import does. The rules take a description of the modules, so a test can apply them to a small house of
 * its own ({@code ArchitectureRulesTest}) as {@code ArchitectureTest} applies them to this one.
 *
 * <p>What a class file does not keep cannot be checked: a compile-time constant of another module (inlined by javac),
 * a local variable's declared type, an annotation of SOURCE retention.
 */
final class ArchitectureRules {
    /**
     * A module of the house.
     *
     * @param name   its directory
     * @param pkgs   its root packages (a class belongs to the module with the longest root that prefixes its name)
     * @param mayUse the modules it may reach
     */
    record Module(String name, List<String> pkgs, Set<String> mayUse) {
        Module(String name, String pkg, Set<String> mayUse) {
            this(name, List.of(pkg), mayUse);
        }
    }

    private static final Set<String> TOOLS_MAY_USE = Set.of("core", "test-suites", "native-runner", "bridge-server", "browser-runtime",
            "fallback", "reports", "api");

    /** This house: six levels (the order below: each module reaches only those before it that it names), and what each may reach. */
    static final ArchitectureRules HOUSE = new ArchitectureRules(List.of(
            new Module("core", "dev.accelbridge.core", Set.of()),
            new Module("test-suites", "dev.accelbridge.suites", Set.of("core")),
            new Module("native-runner", "dev.accelbridge.nativerunner", Set.of("core", "test-suites")),
            // the bridge knows pages and messages; what launches and drives a browser stands on it
            new Module("bridge-server", "dev.accelbridge.bridge", Set.of("core", "test-suites")),
            new Module("browser-runtime", "dev.accelbridge.browser", Set.of("core", "test-suites", "bridge-server")),
            new Module("fallback", "dev.accelbridge.fallback", Set.of("core")),
            new Module("reports", "dev.accelbridge.reports", Set.of("core")),
            new Module("api", List.of("dev.accelbridge.api", "dev.accelbridge.run", "dev.accelbridge.bisect", "dev.accelbridge.observe"),
                    Set.of("core", "test-suites", "native-runner", "bridge-server", "browser-runtime", "fallback", "reports")),
            // the tools (CLI, dashboard) stand on the API; nothing stands on them
            new Module("tools", "dev.accelbridge.tools", TOOLS_MAY_USE),
            new Module("junit5", "dev.accelbridge.junit5", TOOLS_MAY_USE)),
            // the vocabulary, and ONNX's generated protobuf classes, published as they are
            List.of("dev.accelbridge.core.", "dev.accelbridge.suites.onnx.proto."));

    private final Map<String, Module> modules = new LinkedHashMap<>();
    private final List<String> publishedWhole;

    /**
     * @param modules        the modules, lowest level first
     * @param publishedWhole prefixes of names published whole (a module's vocabulary, generated code)
     */
    ArchitectureRules(List<Module> modules, List<String> publishedWhole) {
        modules.forEach(m -> this.modules.put(m.name(), m));
        this.publishedWhole = List.copyOf(publishedWhole);
    }

    Map<String, Module> modules() {
        return modules;
    }

    /**
     * Every reference from one module to another that the first may not use (it points up the levels or across to a
     * module that is not its to use), or to a type the other does not publish; one line per reference, with where it
     * is made ({@code Foo.java:73}).
     */
    List<String> crossModuleReferences(JavaClasses classes) {
        Set<String> wrong = new TreeSet<>();
        for (JavaClass c : classes) {
            String from = ownerOf(c.getName());
            if (from == null) {
                continue;
            }
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                JavaClass target = d.getTargetClass().getBaseComponentType();
                String to = ownerOf(target.getName());
                if (to == null || to.equals(from)) {
                    continue;
                }
                if (!modules.get(from).mayUse().contains(to)) {
                    wrong.add(d.getDescription() + ": " + from + " may not use " + to);
                } else if (!published(target)) {
                    wrong.add(d.getDescription() + ": " + to + " does not publish " + target.getName());
                }
            }
        }
        return List.copyOf(wrong);
    }

    /**
     * What a published type shows (its public constructors, methods and fields, its supertypes, their generic
     * arguments; its public nested types likewise) names only published types: a reference check cannot see that a
     * published method hands out an internal type, which a user's program then depends on.
     */
    List<String> publishedSignatures(JavaClasses classes) {
        Set<String> wrong = new TreeSet<>();
        for (JavaClass c : classes) {
            if (!shownToOthers(c)) {
                continue;
            }
            List<JavaType> types = new ArrayList<>();
            c.getConstructors().stream().filter(k -> k.getModifiers().contains(JavaModifier.PUBLIC))
                    .forEach(k -> types.addAll(k.getParameterTypes()));
            c.getMethods().stream().filter(m -> m.getModifiers().contains(JavaModifier.PUBLIC)
                    && !m.getModifiers().contains(JavaModifier.SYNTHETIC) && !m.getModifiers().contains(JavaModifier.BRIDGE))
                    .forEach(m -> {
                        types.add(m.getReturnType());
                        types.addAll(m.getParameterTypes());
                    });
            c.getFields().stream().filter(f -> f.getModifiers().contains(JavaModifier.PUBLIC)).forEach(f -> types.add(f.getType()));
            c.getSuperclass().ifPresent(types::add);
            types.addAll(c.getInterfaces());
            Map<String, JavaClass> named = new LinkedHashMap<>();
            types.forEach(t -> classesIn(t, named));
            named.values().stream().filter(n -> ownerOf(n.getName()) != null && !published(n))
                    .forEach(n -> wrong.add(c.getName() + " shows " + n.getName() + ", which is not published"));
        }
        return List.copyOf(wrong);
    }

    /** A public type, nested only in public types, that its module publishes: what another module can see. */
    private boolean shownToOthers(JavaClass c) {
        if (ownerOf(c.getName()) == null || c.getSimpleName().equals("package-info") || !(c.isTopLevelClass() || c.isMemberClass())) {
            return false;
        }
        for (JavaClass k = c; k != null; k = k.getEnclosingClass().orElse(null)) {
            if (!k.getModifiers().contains(JavaModifier.PUBLIC)) {
                return false;
            }
        }
        return published(c);
    }

    /** The classes a signature names, as reflection's view of it does (a type variable names none of itself). */
    private static void classesIn(JavaType t, Map<String, JavaClass> out) {
        if (t instanceof JavaClass k) {
            JavaClass e = k.getBaseComponentType();
            out.put(e.getName(), e);
        } else if (t instanceof JavaParameterizedType p) {
            classesIn(p.toErasure(), out);
            p.getActualTypeArguments().forEach(a -> classesIn(a, out));
        } else if (t instanceof JavaGenericArrayType g) {
            classesIn(g.getComponentType(), out);
        } else if (t instanceof JavaWildcardType w) {
            w.getUpperBounds().forEach(b -> classesIn(b, out));
            w.getLowerBounds().forEach(b -> classesIn(b, out));
        }
    }

    /**
     * Published: in a package published whole, in a package named {@code api}, or marked {@link PublicApi} (itself or a
     * type it is nested in; the annotation is kept in the class file).
     */
    boolean published(JavaClass c) {
        String name = c.getName();
        if (publishedWhole.stream().anyMatch(name::startsWith) || ("." + c.getPackageName() + ".").contains(".api.")) {
            return true;
        }
        for (JavaClass k = c; k != null; k = k.getEnclosingClass().orElse(null)) {
            if (k.isAnnotatedWith(PublicApi.class)) {
                return true;
            }
        }
        return false;
    }

    /** The module whose root package is the longest prefix of {@code className} (the API's packages sit under the tools'). */
    String ownerOf(String className) {
        String owner = null;
        int longest = -1;
        for (Module m : modules.values()) {
            for (String pkg : m.pkgs()) {
                if (className.startsWith(pkg + ".") && pkg.length() > longest) {
                    owner = m.name();
                    longest = pkg.length();
                }
            }
        }
        return owner;
    }
}
