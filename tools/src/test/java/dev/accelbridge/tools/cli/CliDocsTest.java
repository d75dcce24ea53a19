package dev.accelbridge.tools.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docs/cli.md} is what the commands say of themselves: the page in the repository equals the one generated from
 * picocli now (with {@code ACCELBRIDGE_WRITE_DOCS=1} the test writes it instead), and each command's section holds what
 * its {@code --help} prints.
 */
class CliDocsTest {
    private static final Path PAGE = Path.of("..", "docs", "cli.md");

    @Test
    void theCommittedPageIsTheGeneratedOne() throws Exception {
        String now = CliDocs.markdown();
        if ("1".equals(System.getenv("ACCELBRIDGE_WRITE_DOCS"))) {
            Files.writeString(PAGE, now, StandardCharsets.UTF_8);
        }
        assertThat(PAGE).as("docs/cli.md is generated: write it again with ACCELBRIDGE_WRITE_DOCS=1 ./mvnw -q -pl tools "
                + "test -Dtest=CliDocsTest").exists();
        assertThat(Files.readString(PAGE, StandardCharsets.UTF_8)).as("docs/cli.md is generated: write it again with "
                + "ACCELBRIDGE_WRITE_DOCS=1 ./mvnw -q -pl tools test -Dtest=CliDocsTest").isEqualTo(now);
    }

    @Test
    void everyCommandsHelpIsInItsSection() {
        String page = CliDocs.markdown();
        var root = Main.commandLine();
        assertThat(root.getSubcommands()).containsKeys("run", "report", "compare", "serve", "bisect", "bisect-versions");
        for (String name : root.getSubcommands().keySet()) {
            StringWriter out = new StringWriter();
            var cl = Main.commandLine();
            cl.setOut(new PrintWriter(out, true));
            cl.setUsageHelpWidth(CliDocs.WIDTH);
            cl.getSubcommands().get(name).setUsageHelpWidth(CliDocs.WIDTH);
            assertThat(cl.execute(name, "--help")).as(name + " --help").isZero();
            String section = page.substring(page.indexOf("\n## " + name + "\n"));
            String firstOption = out.toString().lines().filter(l -> l.stripLeading().startsWith("-")).findFirst().orElseThrow().strip();
            assertThat(section).as(name).contains(out.toString().lines().findFirst().orElseThrow().strip()).contains(firstOption);
        }
    }

    @Test
    void runsHelpSaysTheDefaultsTheCodeTakes() {
        // found when tried: run --help's "Default:" named text, vision and audio in Chromium while five families ran in four browsers
        StringWriter out = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.getSubcommands().get("run").setUsageHelpWidth(400);
        assertThat(cl.execute("run", "--help")).isZero();
        String help = out.toString().replaceAll("\\s+", " ");
        assertThat(help).contains(dev.accelbridge.run.PlanDefaults.describe());
        dev.accelbridge.run.Workload.DEFAULT_SUITES.forEach(f -> assertThat(dev.accelbridge.run.PlanDefaults.describe()).contains(f.id()));
        dev.accelbridge.run.PlanDefaults.BROWSER_BACKENDS.forEach(b -> assertThat(dev.accelbridge.run.PlanDefaults.describe()).contains(b.id()));
        assertThat(dev.accelbridge.run.PlanDefaults.describe()).contains("chromium", "chromium-shell", "firefox", "webkit");
    }
}
