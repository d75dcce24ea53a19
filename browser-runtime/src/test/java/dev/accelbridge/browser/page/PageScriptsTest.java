package dev.accelbridge.browser.page;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page's scripts are held to the size the Java sources are (ArchitectureTest's 350 lines): a script that grows past
 * it is a module doing several things, as page.mjs once did with every job kind, the transfers and the UI in one file.
 */
class PageScriptsTest {
    static final Path WEB = Path.of("src/main/web");
    static final int MAX_LINES = 350;

    @Test
    void noPageScriptPassesThreeHundredFiftyLines() throws IOException {
        List<String> scripts = scripts();
        assertThat(scripts).as("the page's scripts under " + WEB).isNotEmpty();
        List<String> tooLong = new ArrayList<>();
        for (String s : scripts) {
            long lines = Files.readAllLines(WEB.resolve(s)).size();
            if (lines > MAX_LINES) {
                tooLong.add(s + ": " + lines + " lines");
            }
        }
        assertThat(tooLong).as("page scripts over " + MAX_LINES + " lines").isEmpty();
    }

    /**
     * The bridge checks at start that the page's files are on the class path (PageAssets.REQUIRED), so a module added
     * to the page, in a folder of its own or not, is named there too; bare.mjs is the benchmark's baseline, not the page.
     */
    @Test
    void everyScriptOfThePageIsARequiredAsset() throws IOException {
        List<String> page = scripts().stream().filter(s -> s.startsWith("page/")).map(s -> s.substring("page/".length()))
                .filter(s -> !s.equals("bare.mjs")).toList();
        assertThat(page).contains("page.mjs", "jobs/table.mjs");
        assertThat(PageAssets.REQUIRED).containsAll(page);
    }

    /** Every .mjs and .js under src/main/web, sorted, npm's packages aside (they are not ours, and many). */
    static List<String> scripts() throws IOException {
        List<String> out = new ArrayList<>();
        Files.walkFileTree(WEB, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                return dir.getFileName().toString().equals("node_modules") ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                String name = WEB.relativize(file).toString().replace('\\', '/');
                if (name.endsWith(".mjs") || name.endsWith(".js")) {
                    out.add(name);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return out.stream().sorted().toList();
    }
}
