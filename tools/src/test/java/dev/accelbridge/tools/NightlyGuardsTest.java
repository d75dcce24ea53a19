package dev.accelbridge.tools;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.properties.HasAnnotations;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.accelbridge.core.testing.Nightly;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A test moved to the nightly tier names the default-tier test that still proves its feature ({@link Nightly#guardedBy}):
 * read from every module's compiled tests ({@code MODULE/target/test-classes}, which the reactor builds before the tools'),
 * each name must be a test of the project that the default tier runs.
 */
class NightlyGuardsTest {
    private static final List<String> TEST_ANNOTATIONS = List.of("org.junit.jupiter.api.Test", "org.junit.jupiter.params.ParameterizedTest",
            "org.junit.jupiter.api.TestFactory", "org.junit.jupiter.api.RepeatedTest");

    @Test
    void everyNightlyTestNamesADefaultTierTestThatExists() {
        JavaClasses tests = testClasses();
        List<String> nightly = new ArrayList<>();
        tests.forEach(c -> {
            c.tryGetAnnotationOfType(Nightly.class).ifPresent(n -> nightly.add(c.getSimpleName() + ": " + n.guardedBy()));
            c.getMethods().forEach(m -> m.tryGetAnnotationOfType(Nightly.class)
                    .ifPresent(n -> nightly.add(c.getSimpleName() + "#" + m.getName() + ": " + n.guardedBy())));
        });
        assertThat(nightly).as("tests marked @Nightly").isNotEmpty();
        assertThat(problems(tests, c -> !c.getName().startsWith(NightlyGuardsTest.class.getName() + "$"))).isEmpty();
    }

    @Test
    void aGuardThatIsNoTestOrIsNightlyItselfIsNamed() {
        JavaClasses fixture = new ClassFileImporter().importClasses(Guarded.class, NoGuard.class, NightlyGuard.class);
        assertThat(problems(fixture, c -> true)).containsExactlyInAnyOrder(
                "NoGuard#breadth: its guard NoSuchTest#proof names no test class",
                "NightlyGuard#breadth: its guard NightlyGuard#alsoBreadth is nightly itself",
                "Guarded#misnamed: its guard Guarded#notATest is no test");
    }

    /** Each {@code @Nightly} whose guard is not a default-tier test, with why. */
    static List<String> problems(JavaClasses tests, java.util.function.Predicate<JavaClass> checked) {
        Map<String, List<JavaClass>> bySimpleName = tests.stream().collect(Collectors.groupingBy(JavaClass::getSimpleName));
        List<String> out = new ArrayList<>();
        for (JavaClass c : tests) {
            if (!checked.test(c)) {
                continue; // this test's own fixtures, wrong on purpose
            }
            c.tryGetAnnotationOfType(Nightly.class).ifPresent(n -> check(c.getSimpleName(), n.guardedBy(), bySimpleName, out));
            for (JavaMethod m : c.getMethods()) {
                m.tryGetAnnotationOfType(Nightly.class).ifPresent(n -> check(c.getSimpleName() + "#" + m.getName(), n.guardedBy(), bySimpleName, out));
            }
        }
        return out;
    }

    private static void check(String nightly, String guard, Map<String, List<JavaClass>> bySimpleName, List<String> out) {
        String[] parts = guard.split("#", 2);
        List<JavaClass> classes = bySimpleName.getOrDefault(parts[0], List.of());
        if (classes.size() != 1) {
            out.add(nightly + ": its guard " + guard + " names " + (classes.isEmpty() ? "no test class" : "more than one class"));
            return;
        }
        JavaClass c = classes.get(0);
        if (isNightly(c)) {
            out.add(nightly + ": its guard " + guard + " is nightly itself");
            return;
        }
        List<JavaMethod> tests = c.getAllMethods().stream().filter(m -> TEST_ANNOTATIONS.stream().anyMatch(m::isAnnotatedWith)).toList();
        Optional<JavaMethod> named = parts.length == 1 ? tests.stream().filter(m -> !isNightly(m)).findFirst()
                : tests.stream().filter(m -> m.getName().equals(parts[1])).findFirst();
        if (named.isEmpty()) {
            out.add(nightly + ": its guard " + guard + " is no test" + (parts.length == 1 ? " of the default tier" : ""));
        } else if (isNightly(named.get())) {
            out.add(nightly + ": its guard " + guard + " is nightly itself");
        }
    }

    private static boolean isNightly(HasAnnotations<?> e) {
        return e.isAnnotatedWith(Nightly.class) || e.getAnnotations().stream().anyMatch(a -> a.getRawType().getName().equals("org.junit.jupiter.api.Tag")
                && "nightly".equals(a.get("value").orElse(null)));
    }

    private static JavaClasses testClasses() {
        List<Path> dirs = new ArrayList<>();
        for (String module : ArchitectureRules.HOUSE.modules().keySet()) {
            Path dir = Path.of("..", module, "target", "test-classes").toAbsolutePath().normalize();
            assertThat(dir).as("%s's compiled tests (build them first: ./mvnw -DskipTests install)", module)
                    .isDirectoryRecursivelyContaining("glob:**.class");
            dirs.add(dir);
        }
        return new ClassFileImporter().importPaths(dirs);
    }

    // fixtures: classes nested here are left out of the project's check (surefire runs no nested class on its own)

    static class Guarded {
        @Test
        void proof() {
        }

        @Nightly(guardedBy = "Guarded#proof")
        @Test
        void breadth() {
        }

        @Nightly(guardedBy = "Guarded#notATest")
        @Test
        void misnamed() {
        }

        void notATest() {
        }
    }

    static class NoGuard {
        @Nightly(guardedBy = "NoSuchTest#proof")
        @Test
        void breadth() {
        }
    }

    static class NightlyGuard {
        @Nightly(guardedBy = "NightlyGuard#alsoBreadth")
        @Test
        void breadth() {
        }

        @org.junit.jupiter.api.Tag("nightly")
        @Test
        void alsoBreadth() {
        }
    }
}
