package dev.accelbridge.suites.ops;

import dev.accelbridge.core.OpVariant;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** The op suite's own rules, without I/O: names read back, one guard per op, and coverage of what onnxruntime-web declares. */
class OpSuiteTest {
    @Test
    void everyCaseHasAUniqueNameThatReadsBackAndEachOpOneGuard() {
        Set<String> names = new HashSet<>();
        Set<String> ops = new TreeSet<>();
        for (OpCase c : OpSuite.cases()) {
            assertThat(names.add(c.variant().modelName())).as(c.variant().modelName()).isTrue();
            assertThat(OpVariant.parse(c.variant().modelName())).contains(c.variant());
            ops.add(c.variant().opType());
        }
        assertThat(ops).hasSize(164);
        assertThat(OpSuite.guardModelNames()).hasSize(ops.size());
        assertThat(OpVariant.parse("bert-mini")).isEmpty();
    }

    @Test
    void everyOpOnnxRuntimeWebDeclaresIsInTheSuiteOrSaysWhyNot() {
        Set<String> covered = new TreeSet<>();
        OpSuite.cases().forEach(c -> covered.add(c.variant().opType()));
        for (String backend : new String[] {"webgpu", "webnn"}) {
            assertThat(OpKernels.declared(backend)).as(backend).hasSizeGreaterThan(80);
            assertThat(OpKernels.sources(backend)).isNotEmpty();
            Set<String> missing = new TreeSet<>(OpKernels.declared(backend));
            missing.removeAll(covered);
            missing.removeAll(OpSuite.NOT_COVERED.keySet());
            missing.remove("RotaryEmbedding"); // declared by WebNN's op_map; its ai.onnx form (opset 23) is not in the suite yet
            assertThat(missing).as("declared for %s but neither in the suite nor in NOT_COVERED", backend).isEmpty();
        }
    }
}
