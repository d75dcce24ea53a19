package dev.accelbridge.reports.store;

import dev.accelbridge.core.Dimension;
import dev.accelbridge.core.Dimensions;
import org.junit.jupiter.api.Test;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The export's declared fields ({@link ExportSchema}) are its records' own: a field a record gains is declared with its type
 * and range (or named below as held to the generic bounds, with why), and no declaration outlives its field.
 */
class ExportSchemaHeldTest {
    /** A result's fields held to the generic bounds: the op suite's identity, derived and read by {@code OpVariant}. */
    private static final Set<String> GENERIC = Set.of("opType", "opset", "variant");

    private static Set<String> components(Class<?> record) {
        return Arrays.stream(record.getRecordComponents()).map(RecordComponent::getName).collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void everyResultFieldIsDeclaredAndEveryDeclarationIsAField() {
        Set<String> fields = components(ResultForm.class);
        Dimensions.all().stream().map(Dimension::name).forEach(fields::add); // a case's identity stands beside them
        Set<String> declared = new TreeSet<>(ExportSchema.RESULT.fields().keySet());
        assertThat(declared).as("declared, no longer a field").isSubsetOf(fields);
        Set<String> undeclared = new TreeSet<>(fields);
        undeclared.removeAll(declared);
        assertThat(undeclared).as("fields without a declaration").isEqualTo(new TreeSet<>(GENERIC));
    }

    @Test
    void theOtherRecordsAreDeclaredWhole() {
        assertThat(ExportSchema.HOST.fields().keySet()).as("a host's: detect is its HostInfo as stored, checked on reading")
                .isEqualTo(minus(components(ExportForm.HostForm.class), "detect"));
        assertThat(ExportSchema.RUN.fields().keySet()).isEqualTo(components(ExportForm.RunForm.class));
    }

    private static Set<String> minus(Set<String> s, String... out) {
        Set<String> r = new TreeSet<>(s);
        r.removeAll(Set.of(out));
        return r;
    }
}
