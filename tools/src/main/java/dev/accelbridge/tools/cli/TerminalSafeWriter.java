package dev.accelbridge.tools.cli;

import java.io.FilterWriter;
import java.io.IOException;
import java.io.Writer;

/**
 * The one rule every line the CLI prints passes through, whatever printed it: no text from a model, a folder, a page or a
 * peer can move the cursor, clear the screen, set the terminal's title or ring its bell. Colour (SGR, {@code ESC [ ... m},
 * which the run table writes) passes; every other escape sequence (CSI, OSC up to its BEL or ST, a lone ESC and the
 * character after it), every C0 control but newline, return and tab, DEL and the C1 controls (U+009B is CSI too) are
 * dropped. A printer that puts outside text in one line still makes it one line ({@code Text.terminal}): this writer cannot
 * tell its newlines from the program's. The state carries across writes, so a sequence cut between two writes is still one.
 */
final class TerminalSafeWriter extends FilterWriter {
    /** The longest SGR sequence passed on whole; a longer one is dropped. */
    private static final int MAX_SGR = 32;

    private enum State { TEXT, ESC, CSI, OSC, OSC_ESC }

    private State state = State.TEXT;
    private final StringBuilder csi = new StringBuilder();

    TerminalSafeWriter(Writer out) {
        super(out);
    }

    @Override
    public void write(int c) throws IOException {
        char ch = (char) c;
        switch (state) {
            case TEXT -> text(ch);
            case ESC -> {
                if (ch == '[') {
                    csi.setLength(0);
                    csi.append("\u001b[");
                    state = State.CSI;
                } else {
                    state = ch == ']' ? State.OSC : State.TEXT; // any other two-character sequence: both dropped
                }
            }
            case CSI -> {
                csi.append(ch);
                if (ch >= '@' && ch <= '~') { // the final byte
                    if (ch == 'm' && csi.length() <= MAX_SGR && csi.substring(2, csi.length() - 1).matches("[0-9;]*")) {
                        out.write(csi.toString());
                    }
                    state = State.TEXT;
                } else if (csi.length() > MAX_SGR * 4) {
                    state = State.TEXT; // not a sequence a terminal would wait for: dropped
                }
            }
            case OSC -> state = ch == '\u0007' ? State.TEXT : ch == '\u001b' ? State.OSC_ESC : State.OSC;
            case OSC_ESC -> state = State.TEXT; // ESC \ ends it; anything else after ESC ends it too
        }
    }

    private void text(char ch) throws IOException {
        if (ch == '\u001b') {
            state = State.ESC;
        } else if (ch == '\n' || ch == '\r' || ch == '\t' || !(Character.isISOControl(ch))) {
            out.write(ch);
        }
    }

    @Override
    public void write(char[] cbuf, int off, int len) throws IOException {
        for (int i = 0; i < len; i++) {
            write(cbuf[off + i]);
        }
    }

    @Override
    public void write(String str, int off, int len) throws IOException {
        for (int i = 0; i < len; i++) {
            write(str.charAt(off + i));
        }
    }
}
