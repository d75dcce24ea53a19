package dev.accelbridge.tools;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.accelbridge.tools.archfixture.results.Readers;
import dev.accelbridge.tools.archfixture.results.Row;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The rule on a fixture: both unwraps are caught (one broken over two lines), a read that keeps the absence is not. */
class ResultUnwrapsTest {
    @Test
    void anUnwrapIsCaughtAndAReadThatKeepsTheAbsenceIsNot() {
        var found = ResultUnwraps.of(new ClassFileImporter().importClasses(Readers.class),
                java.util.Map.of(Row.class.getName(), java.util.Set.of("timings")));
        assertThat(found).hasSize(2);
        assertThat(found).anySatisfy(f -> assertThat(f).contains("Readers.unwrapped(", "Row.timings()", "Readers.java:"));
        assertThat(found).anySatisfy(f -> assertThat(f).contains("Readers.unwrappedOverTwoLines("));
        assertThat(found).noneMatch(f -> f.contains("Readers.read("));
    }
}
