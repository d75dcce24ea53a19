package dev.accelbridge.bisect;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Bisection;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.suites.FeedOptions;
import dev.accelbridge.suites.ModelDirectory;
import dev.accelbridge.suites.WildModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Found when tried: the bisection repro's README.md carried node and model names as they were, raw escape sequences and
 * {@code <script>} HTML included. Every name from the model is escaped for Markdown there.
 */
class ReprosTest {
    static final String NODE = "n\u001B[2J\u001B]0;pwned\u0007<script>alert(1)</script>![i](http://host/p.png)[x](https://evil)`code`\nnext";

    @Test
    void aReproReadmeEscapesEveryNameTheModelGave(@TempDir Path tmp) throws Exception {
        Path folder = WildModels.unary(tmp.resolve("zoo"), "Relu");
        Path hostile = Files.move(folder, folder.resolveSibling("m\u001B[31m<b>bold[x](evil)"));
        ModelCase mc = ModelDirectory.loadAll(hostile, Optional.empty(), FeedOptions.none()).get(0).cases().get(0);
        CaseId id = CaseId.of(mc, BackendId.WASM, LaneId.NATIVE);
        Bisection b = new Bisection(Bisection.Outcome.FOUND, NODE, "<img src=x onerror=alert(1)>", Map.of("k", NODE), List.of("[2, 6]"),
                List.of("[2, 6]"), 0.5, 1e-3, "the native CPU reference", BackendId.WASM, List.of(new Bisection.Step(NODE, "Relu", 0.5)),
                1, null, null);
        String md = Repros.readme(b, mc, id, null, tmp.resolve("repro"), Map.of("onnxruntime", "1.29.0", "djl", "0.38.0"));
        assertThat(md).doesNotContain("\u001B", "\u0007", "<script>", "<b>", "](http", "](https", "](evil)", "http://")
                .contains("\\<script\\>", "[x]\\(", "https\\://", "\\<b\\>bold", "\\<img src").doesNotContain("&lt;");
        assertThat(md.lines()).noneMatch(l -> l.startsWith("next"));
    }
}
