package dev.accelbridge.bench;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The generation benchmark compares the loops' times only where they decoded the same tokens. */
class GenerationBenchTest {
    @Test
    void loopsThatDecodedTheSameTokensAgree() {
        Map<String, long[][]> t = new LinkedHashMap<>();
        t.put("harness", new long[][] {{4, 7, 9}, {4, 7, 9}});
        t.put("bare", new long[][] {{4, 7, 9}});
        assertThat(GenerationBench.differs(t)).isNull();
    }

    @Test
    void aLoopThatDecodedOtherTokensOrNoneIsNamed() {
        Map<String, long[][]> t = new LinkedHashMap<>();
        t.put("harness", new long[][] {{4, 7, 9}});
        t.put("bare page loop", new long[][] {{4, 7, 9}, {4, 8, 9}});
        assertThat(GenerationBench.differs(t)).isEqualTo("bare page loop, generation 1, step 1: 8 where the first has 7");
        t.put("bare page loop", new long[0][]);
        assertThat(GenerationBench.differs(t)).isEqualTo("bare page loop gave no generation");
        t.put("bare page loop", new long[][] {{4, 7}});
        assertThat(GenerationBench.differs(t)).isEqualTo("bare page loop, generation 0, step 2: none where the first has 9");
    }
}
