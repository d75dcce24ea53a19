package dev.accelbridge.core;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@link Scenario} as a dimension of the matrix ({@link Dimensions#SCENARIO}): one forward pass ({@link #SINGLE_PASS},
 * every case before generation), greedy decoding of {@code newTokens} tokens after a prompt of {@code promptTokens},
 * with the KV cache fed back, or a session a user's own app made and ran, observed in its page ({@link #OBSERVED}: its
 * inputs and its pre- and post-processing are the app's). The same decoder asked for 16 or for 64 new tokens is two
 * cells; what a scenario needs to run (a decoder's layout, its teacher tokens) is the scenario's, not the cell's.
 *
 * @param promptTokens the prompt's length (0 for a single pass)
 * @param newTokens    the tokens generated (0 for a single pass)
 * @param observed     whether the app made the pass, not Accelbridge
 */
public record ScenarioId(int promptTokens, int newTokens, boolean observed) {
    /** One forward pass: what records from before generation take. */
    public static final ScenarioId SINGLE_PASS = new ScenarioId(0, 0);
    /** A session of a user's app, observed in its page as the app ran it. */
    public static final ScenarioId OBSERVED = new ScenarioId(0, 0, true);
    private static final String OBSERVED_ID = "observed in an app";
    /** The most tokens a generation case may ask for. */
    public static final int MAX_TOKENS = 4096;

    private static final Pattern GENERATE = Pattern.compile("generate p(\\d{1,4}) n(\\d{1,4})");

    /** A single pass or a generation, made by Accelbridge. */
    public ScenarioId(int promptTokens, int newTokens) {
        this(promptTokens, newTokens, false);
    }

    public ScenarioId {
        if (observed && newTokens > 0) {
            throw new AccelbridgeException("An observed session is the app's own runs, not a generation", "use ScenarioId.OBSERVED");
        }
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

    /** {@code single-pass}, {@code generate p8 n32}, or {@code observed in an app}. */
    public String id() {
        return generates() ? String.format(Locale.ROOT, "generate p%d n%d", promptTokens, newTokens) : observed ? OBSERVED_ID : "single-pass";
    }

    /** Reads what {@link #id()} writes. */
    public static ScenarioId parse(String text) {
        String t = text == null ? "" : text.trim();
        if (t.equals("single-pass")) {
            return SINGLE_PASS;
        }
        if (t.equals(OBSERVED_ID)) {
            return OBSERVED;
        }
        Matcher m = GENERATE.matcher(t);
        if (!m.matches()) {
            throw new AccelbridgeException("Unknown scenario " + Untrusted.quote(t), "use single-pass, generate pP nN (generate p8 n32) or " + OBSERVED_ID);
        }
        return generate(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }

    @Override
    public String toString() {
        return id();
    }
}
