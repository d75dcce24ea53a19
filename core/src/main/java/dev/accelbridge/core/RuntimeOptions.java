package dev.accelbridge.core;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The ONNX Runtime session options a case ran with where they differ from the defaults ({@link RuntimeOption}): a
 * dimension of the matrix ({@link Dimensions#RUNTIME_OPTIONS}), so the same model with outputs left on the GPU and read
 * back is two cells that {@code compare --by runtimeOptions} pairs. Written {@code default}, or
 * {@code outputs=gpu-buffer;optimization=disabled} in the options' declared order.
 *
 * @param values each option's value, defaults left out
 */
public record RuntimeOptions(Map<RuntimeOption, String> values) {
    /** Every option at its default: what every record before the dimension ran with. */
    public static final RuntimeOptions DEFAULT = new RuntimeOptions(Map.of());

    public RuntimeOptions {
        EnumMap<RuntimeOption, String> m = new EnumMap<>(RuntimeOption.class);
        if (values != null) {
            values.forEach((k, v) -> {
                if (!k.check(v).equals(k.defaultValue())) {
                    m.put(k, v);
                }
            });
        }
        values = java.util.Collections.unmodifiableMap(m);
    }

    /** The value of {@code o}: its own or the default. */
    public String get(RuntimeOption o) {
        return values.getOrDefault(o, o.defaultValue());
    }

    /** Whether every option is at its default. */
    public boolean isDefault() {
        return values.isEmpty();
    }

    /** The options that mean something on {@code backend}: what a case requested there ran with. */
    public RuntimeOptions on(BackendId backend) {
        return only(o -> o.appliesTo(backend));
    }

    /**
     * The options that mean something on {@code backend} in {@code lane}: what a case requested there ran with (an option
     * of the native WebGPU EP alone is left out on JSEP, which drops it unread).
     */
    public RuntimeOptions on(BackendId backend, LaneId lane) {
        return only(o -> o.appliesTo(backend, lane));
    }

    /** The options that mean something on {@code backend} on a page of {@code engine} (null: a page whose engine is its own). */
    public RuntimeOptions on(BackendId backend, OrtWebEngine engine) {
        return only(o -> o.appliesTo(backend, engine));
    }

    private RuntimeOptions only(java.util.function.Predicate<RuntimeOption> keep) {
        Map<RuntimeOption, String> m = new EnumMap<>(RuntimeOption.class);
        values.forEach((k, v) -> {
            if (keep.test(k)) {
                m.put(k, v);
            }
        });
        return new RuntimeOptions(m);
    }

    /** {@code default} or {@code outputs=gpu-buffer;optimization=disabled}. */
    public String id() {
        return values.isEmpty() ? "default" : values.entrySet().stream().map(e -> e.getKey().id() + "=" + e.getValue())
                .collect(Collectors.joining(";"));
    }

    /** Reads what {@link #id()} writes (null or blank: the defaults). */
    public static RuntimeOptions parse(String text) {
        String t = text == null ? "" : text.trim();
        if (t.isEmpty() || t.equals("default")) {
            return DEFAULT;
        }
        Map<RuntimeOption, String> m = new EnumMap<>(RuntimeOption.class);
        for (String part : t.split(";")) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw new AccelbridgeException("Runtime options " + Untrusted.quote(t) + " are not NAME=VALUE;NAME=VALUE",
                        "write them like outputs=gpu-buffer;optimization=disabled");
            }
            m.put(RuntimeOption.named(part.substring(0, eq)), part.substring(eq + 1).trim());
        }
        return new RuntimeOptions(m);
    }

    /**
     * Every combination of the values given per option ({@code run --runtime-option outputs=cpu,gpu-buffer}), in the
     * options' order and each option's values in the order given; the defaults alone when none is given.
     */
    public static List<RuntimeOptions> sweep(Map<RuntimeOption, List<String>> given) {
        List<Map<RuntimeOption, String>> combos = new ArrayList<>();
        combos.add(new EnumMap<>(RuntimeOption.class));
        for (RuntimeOption o : RuntimeOption.values()) {
            List<String> vs = given.get(o);
            if (vs == null || vs.isEmpty()) {
                continue;
            }
            List<Map<RuntimeOption, String>> next = new ArrayList<>();
            for (Map<RuntimeOption, String> c : combos) {
                for (String v : vs) {
                    Map<RuntimeOption, String> m = new EnumMap<>(RuntimeOption.class);
                    m.putAll(c);
                    m.put(o, o.check(v));
                    next.add(m);
                }
            }
            combos = next;
        }
        return combos.stream().map(RuntimeOptions::new).distinct().toList();
    }

    @Override
    public String toString() {
        return id();
    }
}
