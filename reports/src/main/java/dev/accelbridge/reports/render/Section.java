package dev.accelbridge.reports.render;

import java.util.List;

/**
 * One section of a report as data, the same for {@code report.html} and {@code report.md}: a title, an optional intro,
 * then a table or a list (or the line said when there is nothing); each renderer only writes it ({@link HtmlRenderer},
 * {@link MarkdownRenderer}).
 *
 * @param id    the anchor and the table's id in HTML ({@code batch-scaling})
 * @param title the heading
 * @param intro a sentence under the heading, or null
 * @param table the table, or null
 * @param items the list, or empty
 * @param none  what is said when there is neither a row nor an item
 */
record Section(String id, String title, String intro, Table table, List<Item> items, String none) {
    Section {
        items = List.copyOf(items);
    }

    /** A section holding a table. */
    static Section table(String id, String title, String intro, Table table, String none) {
        return new Section(id, title, intro, table, List.of(), none);
    }

    /** A section holding a list. */
    static Section list(String id, String title, List<Item> items, String none) {
        return new Section(id, title, null, null, items, none);
    }

    /** True when the section is left out: nothing to show and nothing to say about it. */
    boolean hidden() {
        return empty() && none == null;
    }

    /** True when there is nothing to show but {@link #none()}. */
    boolean empty() {
        return (table == null || table.rows().isEmpty()) && items.isEmpty();
    }

    /**
     * A table: its header and rows.
     *
     * @param header the column names
     * @param rows   the rows
     */
    record Table(List<String> header, List<Row> rows) {
        Table {
            header = List.copyOf(header);
            rows = List.copyOf(rows);
        }
    }

    /**
     * A row, with a class HTML styles it by ({@code regression}, a severity) or null.
     *
     * @param cls   the row's class, or null
     * @param cells its cells
     */
    record Row(String cls, List<Entry> cells) {
        Row {
            cells = List.copyOf(cells);
        }

        /** A row of plain cells. */
        static Row of(String cls, String... texts) {
            return new Row(cls, java.util.Arrays.stream(texts).map(t -> new Entry(t, null)).toList());
        }
    }

    /**
     * A cell's text, with a class HTML styles it by ({@code ok}, {@code bad}) or null.
     *
     * @param text the text (escaped by the writer)
     * @param cls  the class, or null
     */
    record Entry(String text, String cls) {
    }

    /**
     * A list item: a lead in bold, the rest of its line, and steps under it (a fallback's hops, the taken one marked).
     *
     * @param lead  the bold start
     * @param text  the rest of the line
     * @param steps the steps under it
     * @param folded whether the steps are listed on demand
     */
    record Item(String lead, String text, List<Step> steps, boolean folded) {
        Item {
            steps = List.copyOf(steps);
        }

        /** An item whose steps are shown. */
        Item(String lead, String text, List<Step> steps) {
            this(lead, text, steps, false);
        }

        /** An item whose steps are listed on demand (HTML: under a summary that opens), as a finding's cells. */
        static Item folded(String lead, String text, List<Step> steps) {
            return new Item(lead, text, steps, true);
        }
    }

    /**
     * A step of an item.
     *
     * @param text   the step
     * @param marked the one that was taken
     */
    record Step(String text, boolean marked) {
    }
}
