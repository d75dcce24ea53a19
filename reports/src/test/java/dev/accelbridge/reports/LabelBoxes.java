package dev.accelbridge.reports;

import com.microsoft.playwright.Page;

import java.util.List;

/**
 * Reads the label boxes a page really rendered (every visible text's line boxes, and every SVG text's box) and names
 * the pairs that overlap, and the matrix cells whose text runs past their edge: what a person sees as labels drawn
 * over each other. Text inside a closed {@code <details>} is not rendered and not read.
 */
public final class LabelBoxes {
    private static final String JS = """
            (root) => {
              const scope = document.querySelector(root) || document.body;
              const rects = [];
              let id = 0;
              // a closed <details> keeps its content's boxes under content-visibility: hidden, unpainted: not seen
              const visible = el => el.checkVisibility({ contentVisibilityAuto: true, opacityProperty: true, visibilityProperty: true });
              const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
              let n;
              while ((n = walker.nextNode())) {
                const text = n.textContent.trim();
                const el = n.parentElement;
                if (!text || !el || el.closest('script, style, svg, title') || !visible(el)) continue;
                const range = document.createRange();
                range.selectNodeContents(n);
                for (const b of range.getClientRects()) {
                  if (b.width > 0.5 && b.height > 0.5) rects.push({ id, label: text.slice(0, 50), l: b.left, t: b.top, r: b.right, b: b.bottom });
                }
                id++;
              }
              for (const t of scope.querySelectorAll('svg text')) {
                const b = t.getBoundingClientRect();
                if (b.width > 0.5 && b.height > 0.5 && visible(t)) {
                  rects.push({ id: id++, label: 'svg: ' + t.textContent.slice(0, 50), l: b.left, t: b.top, r: b.right, b: b.bottom });
                }
              }
              rects.sort((a, b) => a.t - b.t);
              const out = [];
              for (let i = 0; i < rects.length && out.length < 20; i++) {
                const a = rects[i];
                for (let j = i + 1; j < rects.length && rects[j].t < a.b - 1; j++) {
                  const c = rects[j];
                  if (c.id === a.id) continue;
                  const ox = Math.min(a.r, c.r) - Math.max(a.l, c.l);
                  const oy = Math.min(a.b, c.b) - Math.max(a.t, c.t);
                  if (ox > 1 && oy > 1) { out.push('"' + a.label + '" overlaps "' + c.label + '"'); break; }
                }
              }
              for (const cell of scope.querySelectorAll('table.grid td, table.grid th')) {
                if (cell.scrollWidth > cell.clientWidth + 1 && out.length < 40) out.push('runs past its cell: "' + cell.textContent.slice(0, 50) + '"');
              }
              return out;
            }
            """;

    private LabelBoxes() {
    }

    /** The overlapping label pairs (and overflowing cells) under {@code rootSelector}, at most a few dozen; empty when none. */
    @SuppressWarnings("unchecked")
    public static List<String> overlaps(Page page, String rootSelector) {
        return (List<String>) page.evaluate(JS, rootSelector);
    }

    /** How many label boxes were read under {@code rootSelector}: a check that the reader saw the page. */
    public static int count(Page page, String rootSelector) {
        return ((Number) page.evaluate("(root) => { const s = document.querySelector(root) || document.body; let k = 0;"
                + " const w = document.createTreeWalker(s, NodeFilter.SHOW_TEXT); let n; while ((n = w.nextNode())) {"
                + " if (n.textContent.trim() && n.parentElement && n.parentElement.getClientRects().length) k++; }"
                + " return k + s.querySelectorAll('svg text').length; }", rootSelector)).intValue();
    }
}
