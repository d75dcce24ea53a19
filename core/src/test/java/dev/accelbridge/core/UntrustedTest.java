package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Text from outside, bounded and made one line. */
class UntrustedTest {
    @Test
    void aMillionCharacterAnswerBecomesABoundedReason() {
        // found when tried: a repository's 1,000,000-character .sha1 body became a 1,000,251-character reason, which
        // export wrote and merge then refused (its limit is 65,536), so one bad answer made a shard unmergeable
        String r = Untrusted.reason("x".repeat(1_000_000));
        assertThat(r).hasSize(Untrusted.MAX_REASON).startsWith("xxxx").matches("x+…\\(\\+9[0-9]{2},[0-9]{3} characters\\)");
        assertThat(Untrusted.reason(null)).isNull();
        assertThat(Untrusted.reason("short")).isEqualTo("short");
    }

    @Test
    void escapesAndControlCharactersNeverReachATerminal() {
        assertThat(Untrusted.oneLine("1.2\u001B[31mRED\u001B[0m\nnext\u0007")).isEqualTo("1.2RED next ");
        assertThat(Untrusted.quote("a\u001B]0;title\u0007b")).isEqualTo("'ab'");
    }

    @Test
    void aLongBadValueIsQuotedInEightyCharactersWithItsLength() {
        String q = Untrusted.quote("y".repeat(100_000));
        assertThat(q).startsWith("'yyyy").endsWith("…' (100,000 characters)");
        assertThat(q.length()).isLessThan(Untrusted.MAX_QUOTE + 30);
        assertThat(Untrusted.quote("1.22.0")).isEqualTo("'1.22.0'");
    }
}
