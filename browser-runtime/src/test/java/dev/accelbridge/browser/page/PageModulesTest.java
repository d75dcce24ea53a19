package dev.accelbridge.browser.page;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The inference page asks for every module of its script at once: {@code index.html} preloads exactly the modules
 * {@code page.mjs} reaches by its static imports, so none is found one import deeper after its importer arrived (a module
 * missing from the list still loads, only later; one listed and no longer imported is fetched for nothing), and
 * onnxruntime-web's bundle is asked for by {@code ortload.mjs}, run on its own before the page's script.
 */
class PageModulesTest {
    private static final Path PAGE = Path.of("src/main/web/page");
    private static final Pattern IMPORT = Pattern.compile("^\\s*(?:import|export)\\s[^'\"]*?from\\s+'(\\.[^']+)'|^\\s*import\\s+'(\\.[^']+)'",
            Pattern.MULTILINE);
    private static final Pattern PRELOAD = Pattern.compile("<link rel=\"modulepreload\" href=\"\\./([^\"]+)\">");

    @Test
    void theHtmlPreloadsEveryModuleThePageImportsAndNoOther() throws IOException {
        assertThat(preloaded(PAGE)).isEqualTo(imported(PAGE));
        String html = Files.readString(PAGE.resolve("index.html"));
        assertThat(html).as("onnxruntime-web asked for by a module of its own, before the page's").containsSubsequence(
                "<script type=\"module\" async src=\"./ortload.mjs\"></script>", "<script type=\"module\" src=\"./page.mjs\"></script>");
    }

    @Test
    void aModuleImportedAndNotPreloadedIsNamed(@TempDir Path tmp) throws IOException {
        Files.createDirectories(tmp.resolve("jobs"));
        Files.writeString(tmp.resolve("page.mjs"), "import { a } from './a.mjs';\nimport './jobs/b.mjs';\n");
        Files.writeString(tmp.resolve("a.mjs"), "export { c } from './c.mjs';\nexport const a = 1;\n");
        Files.writeString(tmp.resolve("c.mjs"), "export const c = import('./not-static.mjs');\n");
        Files.writeString(tmp.resolve("jobs/b.mjs"), "import { a } from '../a.mjs';\n");
        Files.writeString(tmp.resolve("index.html"), "<link rel=\"modulepreload\" href=\"./page.mjs\">\n"
                + "<link rel=\"modulepreload\" href=\"./a.mjs\">\n<link rel=\"modulepreload\" href=\"./jobs/b.mjs\">\n");
        assertThat(imported(tmp)).containsExactly("a.mjs", "c.mjs", "jobs/b.mjs", "page.mjs");
        assertThat(preloaded(tmp)).isNotEqualTo(imported(tmp)).doesNotContain("c.mjs");
    }

    /** The modules {@code page.mjs} reaches by static imports (and re-exports), itself included, relative to {@code dir}. */
    private static Set<String> imported(Path dir) throws IOException {
        Set<String> seen = new TreeSet<>();
        Deque<Path> todo = new ArrayDeque<>();
        todo.add(dir.resolve("page.mjs").normalize());
        while (!todo.isEmpty()) {
            Path f = todo.poll();
            if (!seen.add(dir.normalize().relativize(f).toString().replace('\\', '/'))) {
                continue;
            }
            Matcher m = IMPORT.matcher(Files.readString(f));
            while (m.find()) {
                todo.add(f.getParent().resolve(m.group(1) != null ? m.group(1) : m.group(2)).normalize());
            }
        }
        return seen;
    }

    private static Set<String> preloaded(Path dir) throws IOException {
        Set<String> out = new TreeSet<>();
        Matcher m = PRELOAD.matcher(Files.readString(dir.resolve("index.html")));
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }
}
