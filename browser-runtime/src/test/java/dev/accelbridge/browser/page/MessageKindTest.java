package dev.accelbridge.browser.page;

import dev.accelbridge.bridge.protocol.MessageKind;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The page's message kinds and the bridge's are one list: same names, same ids, no kind on one side only. */
class MessageKindTest {
    private static final Path PAGE = Path.of("src/main/web/page");

    @Test
    void kindsMjsAndTheEnumNameTheSameKinds() throws Exception {
        Map<String, String> page = new LinkedHashMap<>();
        Matcher m = Pattern.compile("^\\s+([A-Z_]+): '([a-z-]+)',$", Pattern.MULTILINE).matcher(Files.readString(PAGE.resolve("kinds.mjs")));
        while (m.find()) {
            page.put(m.group(1), m.group(2));
        }
        Map<String, String> java = new LinkedHashMap<>();
        for (MessageKind k : MessageKind.values()) {
            java.put(k.name(), k.id());
        }
        assertThat(page).isEqualTo(java);
    }

    @Test
    void thePageSpellsNoKindOutsideKindsMjs() throws Exception {
        for (String script : PageScriptsTest.scripts()) {
            if (script.equals("page/kinds.mjs")) {
                continue;
            }
            String page = Files.readString(PageScriptsTest.WEB.resolve(script));
            for (MessageKind k : MessageKind.values()) {
                assertThat(page).as(script + ": " + k.id()).doesNotContain("type: '" + k.id() + "'").doesNotContain("case '" + k.id() + "':")
                        .doesNotContain("msg.type === '" + k.id() + "'").doesNotContain("['" + k.id() + "']:");
            }
        }
    }

    @Test
    void everyAnswerNamesTheRequestItAnswers() {
        assertThat(MessageKind.LOADED.answers()).containsExactly(MessageKind.LOAD);
        assertThat(MessageKind.RESULT.answers()).containsExactlyInAnyOrder(MessageKind.RUN, MessageKind.GENERATE);
        assertThat(MessageKind.RESULT_CHUNK.answers()).containsExactlyInAnyOrder(MessageKind.RUN, MessageKind.GENERATE);
        assertThat(MessageKind.PROBE.answers()).contains(MessageKind.PROBE);
        assertThat(MessageKind.HELLO.answers()).isEmpty();
        assertThat(MessageKind.of("result-chunk")).contains(MessageKind.RESULT_CHUNK);
        assertThat(MessageKind.of("shutdown")).isEmpty();
    }
}
