package dev.accelbridge.tools;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The house as docs/architecture.md draws it ({@link ArchitectureRules#HOUSE}), checked on every module's compiled
 * main classes ({@code MODULE/target/classes}, which the reactor builds first): references point down the levels, a
 * module reaches another only through its published surface (core, a package named {@code api}, a type marked
 * {@code @PublicApi}, the generated protobuf classes), and what a published type shows names only published types. A
 * name written inline compiles to the same reference as an imported one, so both count. The size guard reads the
 * sources: no main class passes 350 lines.
 */
class ArchitectureTest {
    private static final Path ROOT = Path.of("..");
    private static final ArchitectureRules RULES = ArchitectureRules.HOUSE;

    private static JavaClasses classes;

    @BeforeAll
    static void importEveryModule() {
        classes = mainClasses();
    }

    /** Every module's main classes, read from their {@code target/classes}. */
    static JavaClasses mainClasses() {
        List<Path> dirs = new ArrayList<>();
        for (String module : RULES.modules().keySet()) {
            Path dir = classesOf(module);
            assertThat(dir).as("%s's compiled classes (build it first: ./mvnw -pl tools -am test-compile)", module)
                    .isDirectoryRecursivelyContaining("glob:**.class");
            dirs.add(dir);
        }
        return new ClassFileImporter().importPaths(dirs);
    }

    @Test
    void referencesPointDownAndReachOtherModulesOnlyThroughTheirPublishedSurface() {
        assertThat(RULES.crossModuleReferences(classes)).isEmpty();
    }

    @Test
    void aResultsPartsAreReadByItsOutcomesKindNotUnwrapped() {
        assertThat(ResultUnwraps.of(classes)).isEmpty();
    }

    @Test
    void publishedSignaturesNameOnlyPublishedTypes() {
        assertThat(RULES.publishedSignatures(classes)).isEmpty();
    }

    /** The rules place a class by its package; each module's classes sit in its own packages, so that place is its module. */
    @Test
    void everyClassSitsInItsModulesPackages() {
        List<String> wrong = new ArrayList<>();
        for (JavaClass c : classes) {
            String module = moduleAt(c);
            String owner = RULES.ownerOf(c.getName());
            if (!module.equals(owner)) {
                wrong.add(c.getName() + " is compiled in " + module + " but its package is " + owner + "'s");
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void noMainClassPassesThreeHundredFiftyLines() throws Exception {
        List<String> long_ = new ArrayList<>();
        for (String module : RULES.modules().keySet()) {
            for (Path f : mainSources(module)) {
                long lines = Files.readAllLines(f).size();
                if (lines > 350) {
                    long_.add(f + ": " + lines + " lines");
                }
            }
        }
        assertThat(long_).isEmpty();
    }

    /** The dashboard's, the report's and the observer's browser scripts are held as the page's are (PageScriptsTest): 350 lines. */
    @Test
    void noDashboardOrReportScriptPassesThreeHundredFiftyLines() throws Exception {
        List<String> long_ = new ArrayList<>();
        for (Path dir : List.of(ROOT.resolve("tools/src/main/resources/dev/accelbridge/tools/dashboard/web"),
                ROOT.resolve("reports/src/main/resources/dev/accelbridge/reports/render"),
                ROOT.resolve("browser-runtime/src/main/resources/dev/accelbridge/browser/observe"))) {
            try (var files = Files.list(dir)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".js")).toList()) {
                    long lines = Files.readAllLines(f).size();
                    if (lines > 350) {
                        long_.add(f + ": " + lines + " lines");
                    }
                }
            }
        }
        assertThat(long_).isEmpty();
    }

    @Test
    void theCheckRefusesWhatItShould() {
        assertThat(RULES.published(classes.get("dev.accelbridge.api.RunRequest"))).isTrue();
        assertThat(RULES.published(classes.get("dev.accelbridge.core.CaseId"))).isTrue();
        assertThat(RULES.published(classes.get("dev.accelbridge.reports.store.MatrixStore"))).isTrue();
        assertThat(RULES.published(classes.get("dev.accelbridge.run.RunOrchestrator"))).isFalse();
        assertThat(RULES.published(classes.get("dev.accelbridge.reports.store.ResultRows"))).isFalse();
        assertThat(RULES.ownerOf("dev.accelbridge.bridge.hub.PageHub")).isEqualTo("bridge-server");
        assertThat(RULES.modules().get("reports").mayUse()).doesNotContain("tools");
        assertThat(RULES.ownerOf("dev.accelbridge.run.RunPlan")).isEqualTo("api");
        assertThat(RULES.ownerOf("dev.accelbridge.tools.cli.Main")).isEqualTo("tools");
        assertThat(RULES.modules().get("junit5").mayUse()).contains("api").doesNotContain("tools");
        assertThat(classes.contain("dev.accelbridge.junit5.AccelbridgeTest")).isTrue();
    }

    private static Path classesOf(String module) {
        return ROOT.resolve(module).resolve("target/classes").toAbsolutePath().normalize();
    }

    /** The module whose {@code target/classes} the class was read from. */
    private static String moduleAt(JavaClass c) {
        String uri = c.getSource().orElseThrow().getUri().toString();
        return RULES.modules().keySet().stream().filter(m -> uri.startsWith(classesOf(m).toUri().toString())).findFirst()
                .orElse("nowhere known");
    }

    private static List<Path> mainSources(String module) throws IOException {
        Path dir = ROOT.resolve(module).resolve("src/main/java");
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }
}
