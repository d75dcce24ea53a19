package dev.accelbridge.tools;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.accelbridge.tools.ArchitectureRules.Module;
import dev.accelbridge.tools.archfixture.lower.Hidden;
import dev.accelbridge.tools.archfixture.lower.ReachesUp;
import dev.accelbridge.tools.archfixture.upper.ImportsPublished;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The house rules on a house of two modules (the classes of {@code archfixture}): a name of the other module's
 * unpublished type written inline, with no import, is caught where an import reader saw nothing, in a method, a lambda
 * and a nested class alike; what reaches only published types passes.
 */
class ArchitectureRulesTest {
    private static final String FIXTURE = "dev.accelbridge.tools.archfixture";
    private static final ArchitectureRules RULES = new ArchitectureRules(List.of(
            new Module("lower", FIXTURE + ".lower", Set.of()),
            new Module("upper", FIXTURE + ".upper", Set.of("lower"))), List.of());
    private static final JavaClasses ALL = new ClassFileImporter().importPackages(FIXTURE);

    /** What an import reader saw: no fixture imports the unpublished type, each names it inline. */
    @Test
    void theInlineCasesHaveNoImportOfIt() throws Exception {
        for (String c : List.of("InlineInMethod", "InlineInLambda", "InlineInNested")) {
            String source = Files.readString(Path.of("src/test/java", FIXTURE.replace('.', '/'), "upper", c + ".java"));
            assertThat(source).as(c).doesNotContain("import " + Hidden.class.getName()).contains(Hidden.class.getName() + ".name()");
        }
    }

    @Test
    void anInlineNameInAMethodIsCaught() {
        assertThat(RULES.crossModuleReferences(only(FIXTURE + ".upper.InlineInMethod"))).singleElement().asString()
                .contains("InlineInMethod.name()", Hidden.class.getName(), "(InlineInMethod.java:", "lower does not publish");
    }

    @Test
    void anInlineNameInALambdaIsCaught() {
        assertThat(RULES.crossModuleReferences(only(FIXTURE + ".upper.InlineInLambda"))).singleElement().asString()
                .contains("InlineInLambda", Hidden.class.getName(), "(InlineInLambda.java:", "lower does not publish");
    }

    @Test
    void anInlineNameInANestedClassIsCaught() {
        assertThat(RULES.crossModuleReferences(only(FIXTURE + ".upper.InlineInNested$Inner"))).singleElement().asString()
                .contains("InlineInNested$Inner.name()", Hidden.class.getName(), "lower does not publish");
    }

    @Test
    void referencesToPublishedTypesPass() {
        assertThat(RULES.crossModuleReferences(only(ImportsPublished.class.getName()))).isEmpty();
    }

    @Test
    void aReferenceUpTheFloorsIsCaughtEvenToAPublishedType() {
        assertThat(RULES.crossModuleReferences(only(ReachesUp.class.getName()))).singleElement().asString()
                .contains(ImportsPublished.class.getName(), "lower may not use upper");
    }

    @Test
    void theWholeFixtureHasTheFourItShouldAndNoMore() {
        assertThat(RULES.crossModuleReferences(ALL)).hasSize(4)
                .anyMatch(v -> v.contains("InlineInMethod")).anyMatch(v -> v.contains("InlineInLambda"))
                .anyMatch(v -> v.contains("InlineInNested$Inner")).anyMatch(v -> v.contains("ReachesUp"));
    }

    @Test
    void aPublishedSignatureThatShowsAnUnpublishedTypeIsCaught() {
        assertThat(RULES.publishedSignatures(ALL)).containsExactly(FIXTURE + ".lower.ShowsHidden shows " + Hidden.class.getName()
                + ", which is not published");
    }

    @Test
    void publishedIsTheMarkThePackageOrTheEnclosingType() {
        assertThat(RULES.published(ALL.get(FIXTURE + ".lower.Shared"))).isTrue();
        assertThat(RULES.published(ALL.get(FIXTURE + ".lower.Shared$Part"))).isTrue();
        assertThat(RULES.published(ALL.get(FIXTURE + ".lower.api.Door"))).isTrue();
        assertThat(RULES.published(ALL.get(Hidden.class.getName()))).isFalse();
        assertThat(RULES.ownerOf(FIXTURE + ".lower.api.Door")).isEqualTo("lower");
        assertThat(RULES.ownerOf("dev.accelbridge.core.CaseId")).isNull();
    }

    /** The fixture's class of that name and the classes nested in it: one case. */
    private static JavaClasses only(String name) {
        JavaClasses picked = ALL.that(describe(name, c -> c.getName().equals(name) || c.getName().startsWith(name + "$")));
        assertThat(picked).as(name).isNotEmpty();
        return picked;
    }
}
