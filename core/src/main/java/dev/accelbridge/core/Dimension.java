package dev.accelbridge.core;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * One dimension of the matrix, declared once ({@link Dimensions}): its one name (the JSON field of a result, the API's
 * filter and the dashboard's facet), the store column that holds it, the {@code run} option that sweeps it, how its value is read from a {@link CaseId},
 * parsed and written, and the value a record that predates it takes. The store, the JSON form, the filters, the
 * facets and the dashboard iterate over the descriptors instead of naming a dimension.
 *
 * @param <T> the dimension's typed value
 */
public final class Dimension<T> {
    /** How a value is written in JSON and SQL: text, or a whole number. */
    public enum Kind {
        /** A JSON string, a VARCHAR column. */
        TEXT,
        /** A JSON integer, an INTEGER column. */
        WHOLE
    }

    private final String name;
    private final String column;
    private final String label;
    private final Kind kind;
    private final long min;
    private final long max;
    private final Function<CaseId, T> get;
    private final Function<String, T> parse;
    private final Function<T, String> format;
    private final T absent;
    private final boolean nullable;
    private final boolean facet;
    private final List<String> aliases;
    private final String flag;

    private Dimension(Builder<T> b) {
        this.name = b.name;
        this.column = b.column;
        this.label = b.label;
        this.kind = b.kind;
        this.min = b.min;
        this.max = b.max;
        this.get = b.get;
        this.parse = b.parse;
        this.format = b.format;
        this.absent = b.absent;
        this.nullable = b.nullable;
        this.facet = b.facet;
        this.aliases = List.copyOf(b.aliases);
        this.flag = b.flag;
    }

    /**
     * Starts a descriptor.
     *
     * @param name the one name (JSON field, filter, facet), camelCase
     * @param get  the value of a case
     */
    static <T> Builder<T> builder(String name, Function<CaseId, T> get) {
        return new Builder<>(name, get);
    }

    /**
     * The dimension of a {@link VersionAxis}: text, nullable (a lane of the other side has none), a facet, read from the
     * lane's versions by {@code name}.
     *
     * @param name    the axis's one name, camelCase letters and digits ({@code ortWebVersion}); its column is the snake case
     * @param label   words for a person ({@code onnxruntime-web version})
     * @param flag    the {@code run} option that sweeps it ({@code --ort-web}), or null for none of its own
     * @param aliases other names it answers to; the first also names it in a lane's key ({@code ort-web})
     * @throws AccelbridgeException when the name could not be a column
     */
    public static Dimension<String> version(String name, String label, String flag, String... aliases) {
        if (name == null || !name.matches("[a-z][A-Za-z0-9]{0,39}")) {
            throw new AccelbridgeException("A version axis's name must be camelCase letters and digits, got " + Untrusted.quote(String.valueOf(name)),
                    "name it like ortWebVersion");
        }
        Builder<String> b = builder(name, (CaseId id) -> id.lane().version(name)).setText(Function.identity(), Function.identity())
                .optLabel(label).optNullable().optFacet().optAliases(aliases);
        return (flag == null ? b : b.optFlag(flag)).build();
    }

    /** The one name: JSON field of a result, the API's filter parameter and the dashboard's facet. */
    public String name() {
        return name;
    }

    /** The store column. */
    public String column() {
        return column;
    }

    /** Words for a person ("batch size"). */
    public String label() {
        return label;
    }

    /** How a value is written in JSON and SQL. */
    public Kind kind() {
        return kind;
    }

    /** The least value of a {@link Kind#WHOLE} dimension. */
    public long min() {
        return min;
    }

    /** The greatest value of a {@link Kind#WHOLE} dimension. */
    public long max() {
        return max;
    }

    /** True when a case may not know its value (an imported legacy row has no model hash). */
    public boolean nullable() {
        return nullable;
    }

    /** True when the dashboard offers the dimension as a filter (a facet). */
    public boolean facet() {
        return facet;
    }

    /** Older names a filter still accepts ({@code batch} for {@code batchSize}). */
    public List<String> aliases() {
        return aliases;
    }

    /** The {@code accelbridge run} option that sweeps this dimension ({@code --batch-sizes}), or null when none does. */
    public String flag() {
        return flag;
    }

    /** True when {@code n} names this dimension (its name or an alias, case-insensitively). */
    public boolean isCalled(String n) {
        return name.equalsIgnoreCase(n) || aliases.stream().anyMatch(a -> a.equalsIgnoreCase(n));
    }

    /** The typed value of {@code id}. */
    public T of(CaseId id) {
        return get.apply(id);
    }

    /** The value of {@code id} as written (null when unknown). */
    public String text(CaseId id) {
        T v = get.apply(id);
        return v == null ? null : format.apply(v);
    }

    /** The value of {@code id} for JSON and SQL: an Integer for {@link Kind#WHOLE}, else the text. */
    public Object value(CaseId id) {
        String t = text(id);
        return t == null || kind == Kind.TEXT ? t : Integer.valueOf(t);
    }

    /**
     * Reads a written value; null or blank is the value a record without this dimension takes (null where the
     * dimension may be unknown).
     *
     * @throws AccelbridgeException naming the dimension when the text is not one of its values
     */
    public T parse(String text) {
        if (text == null || text.isBlank()) {
            if (absent == null && !nullable) {
                throw new AccelbridgeException("The " + label + " (" + name + ") is missing", "give the case's " + label);
            }
            return absent;
        }
        if (kind == Kind.WHOLE) {
            long n;
            try {
                n = Long.parseLong(text.trim());
            } catch (NumberFormatException e) {
                n = Long.MIN_VALUE;
            }
            if (n < min || n > max) {
                throw new AccelbridgeException("The " + label + " (" + name + ") must be a whole number from " + min + " to "
                        + max + ", got '" + text + "'", "give a " + label + " from " + min + " to " + max);
            }
        }
        try {
            return parse.apply(text.trim());
        } catch (AccelbridgeException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new AccelbridgeException("The " + label + " (" + name + ") '" + text + "' is not understood",
                    "give a " + label + " Accelbridge writes", e);
        }
    }

    /** The typed value a written value stands for, formatted back (a filter compares these). */
    public String canonical(String text) {
        T v = parse(text);
        return v == null ? null : format.apply(v);
    }

    @Override
    public String toString() {
        return name;
    }

    /**
     * Builds a {@link Dimension}: the name and the getter are required ({@link #builder}), the rest optional.
     *
     * @param <T> the value type
     */
    static final class Builder<T> {
        private final String name;
        private final Function<CaseId, T> get;
        private String column;
        private String label;
        private Kind kind = Kind.TEXT;
        private long min = Long.MIN_VALUE;
        private long max = Long.MAX_VALUE;
        private Function<String, T> parse;
        private Function<T, String> format = Object::toString;
        private T absent;
        private boolean nullable;
        private boolean facet;
        private List<String> aliases = List.of();
        private String flag;

        private Builder(String name, Function<CaseId, T> get) {
            this.name = Objects.requireNonNull(name);
            this.get = Objects.requireNonNull(get);
            this.column = name.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
            this.label = name;
        }

        Builder<T> setText(Function<String, T> parse, Function<T, String> format) {
            this.parse = parse;
            this.format = format;
            return this;
        }

        Builder<T> optColumn(String c) {
            this.column = c;
            return this;
        }

        Builder<T> optLabel(String l) {
            this.label = l;
            return this;
        }

        Builder<T> optWhole(long least, long most) {
            this.kind = Kind.WHOLE;
            this.min = least;
            this.max = most;
            return this;
        }

        Builder<T> optAbsent(T v) {
            this.absent = v;
            return this;
        }

        Builder<T> optNullable() {
            this.nullable = true;
            return this;
        }

        Builder<T> optFacet() {
            this.facet = true;
            return this;
        }

        Builder<T> optAliases(String... a) {
            this.aliases = List.of(a);
            return this;
        }

        Builder<T> optFlag(String f) {
            this.flag = f;
            return this;
        }

        Dimension<T> build() {
            Objects.requireNonNull(parse, "parse");
            return new Dimension<>(this);
        }
    }
}
