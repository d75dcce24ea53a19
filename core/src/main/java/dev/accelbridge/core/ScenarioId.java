package dev.accelbridge.core;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@link Scenario} as a dimension of the matrix ({@link Dimensions#SCENARIO}): one forward pass ({@link #SINGLE_PASS},
 * every case before generation), or greedy decoding of {@code newTokens} tokens after a prompt of {@code promptTokens},
 * with the KV cache fed back. The same decoder asked for 16 or for 64 new tokens is two cells; what a scenario needs to
 * run (a decoder's layout, its teacher tokens) is the scenario's, not the cell's.
 *
 * @param promptTokens the prompt's length (0 for a single pass)
 * @param newTokens    the tokens generated (0 for a single pass)
 */
public record ScenarioId(int promptTokens, int newTokens) {
    /** One forward pass: what records from before generation take. */
    public static final ScenarioId SINGLE_PASS = new ScenarioId(0, 0);
    /** The most tokens a generation case may ask for. */
    public static final int MAX_TOKENS = 4096;

    private static final Pattern GENERATE = Pattern.compile("generate p(\\d{1,4}) n(\\d{1,4})");

    public ScenarioId {
        if (promptTokens < 0 || newTokens < 0 || promptTokens > MAX_TOKENS || newTokens > MAX_TOKENS
                || (newTokens == 0) != (promptTokens == 0)) {
            throw new AccelbridgeException("A generation needs a prompt of 1.." + MAX_TOKENS + " tokens and 1.." + MAX_TOKENS
                    + " new tokens, got prompt " + promptTokens + ", new " + newTokens, "e.g. --prompt-tokens 8 --new-tokens 32");
        }
    }

    /** Greedy decoding of {@code newTokens} after {@code promptTokens}. */
    public static ScenarioId generate(int promptTokens, int newTokens) {
        return new ScenarioId(promptTokens, newTokens);
    }

    /** True for a generation. */
    public boolean generates() {
        return newTokens > 0;
    }

    /** {@code single-pass}, or {@code generate p8 n32}. */
    public String id() {
        return generates() ? String.format(Locale.ROOT, "generate p%d n%d", promptTokens, newTokens) : "single-pass";
    }

    /** Reads what {@link #id()} writes. */
    public static ScenarioId parse(String text) {
        String t = text == null ? "" : text.trim();
        if (t.equals("single-pass")) {
            return SINGLE_PASS;
        }
        Matcher m = GENERATE.matcher(t);
        if (!m.matches()) {
            throw new AccelbridgeException("Unknown scenario " + Untrusted.quote(t), "use single-pass or generate pP nN (generate p8 n32)");
        }
        return generate(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }

    @Override
    public String toString() {
        return id();
    }
}
