package dev.accelbridge.fallback;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.UnknownBackendException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static dev.accelbridge.core.BackendId.*;

/**
 * The set of fallback chains in force: the defaults, optionally overridden from the CLI
 * ({@code --chain webgpu,webnn-gpu,wasm}) or a config file. Immutable.
 *
 * <p>Default chains. docs/design.md writes the browser chain as {@code webgpu → webnn → wasm}; "webnn" expands to
 * its GPU device type then its CPU device type, because WebNN-on-GPU is the closest thing to WebGPU and
 * WebNN-on-CPU is still a native-speed path before plain WebAssembly:
 * <ul>
 *   <li>{@code webgpu → webnn-gpu → webnn-cpu → wasm}</li>
 *   <li>{@code webnn-gpu → webnn-cpu → wasm}</li>
 *   <li>{@code webnn-npu → webnn-gpu → webnn-cpu → wasm}</li>
 *   <li>{@code webnn-cpu → wasm}</li>
 *   <li>{@code wasm}</li>
 *   <li>{@code cuda → openvino → cpu}, {@code rocm → openvino → cpu}, {@code coreml → cpu}, {@code openvino → cpu},
 *       {@code native-webgpu → cpu}</li>
 *   <li>{@code cpu}</li>
 * </ul>
 *
 * <p>Config form ({@link #parseConfig(Reader)}), one chain per line, {@code #} starts a comment:
 * <pre>
 * # requested = hop,hop,...   (the requested backend may be repeated as the first hop, or left out)
 * webgpu = webgpu,wasm
 * cuda   = cpu
 * </pre>
 * Parsing takes a {@link Reader} or a String so this module stays free of I/O; the CLI opens the file.
 */
@PublicApi
public final class Chains {
    private static final Chains DEFAULTS = new Chains(defaultMap());

    private final Map<BackendId, Chain> chains;

    private Chains(Map<BackendId, Chain> chains) {
        this.chains = Collections.unmodifiableMap(new EnumMap<>(chains));
    }

    /** The default chains (see the class comment). */
    public static Chains defaults() {
        return DEFAULTS;
    }

    /** The chain of {@code requested}: its override when one was given, else its default. */
    public Chain forBackend(BackendId requested) {
        return chains.get(requested);
    }

    /** Every chain, keyed by requested backend. */
    public Map<BackendId, Chain> asMap() {
        return chains;
    }

    /** These chains with {@code chain} replacing the one of its requested backend. */
    public Chains with(Chain chain) {
        Map<BackendId, Chain> m = new EnumMap<>(chains);
        m.put(chain.requested(), chain);
        return new Chains(m);
    }

    /** These chains with every chain of {@code overrides} replacing the one of its requested backend. */
    public Chains with(List<Chain> overrides) {
        Chains c = this;
        for (Chain ch : overrides) {
            c = c.with(ch);
        }
        return c;
    }

    /**
     * Parses the command-line form {@code webgpu,webnn-gpu,wasm}; the first element is the requested backend.
     *
     * @throws InvalidChainException naming the offending element for an empty list, an unknown backend,
     *                               a duplicate or a browser/native mix
     */
    public static Chain parse(String csv) {
        if (csv == null || csv.isBlank()) {
            throw new InvalidChainException("Empty fallback chain", "give the backends in order, e.g. --chain webgpu,webnn-gpu,wasm");
        }
        List<BackendId> hops = new ArrayList<>();
        for (String part : csv.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) {
                throw new InvalidChainException("Empty element in fallback chain '" + csv + "'",
                        "separate backends with single commas, e.g. webgpu,webnn-gpu,wasm");
            }
            try {
                hops.add(BackendId.parse(p));
            } catch (UnknownBackendException e) {
                throw new InvalidChainException("Unknown backend '" + p + "' in fallback chain '" + csv + "'",
                        "use one of: " + BackendId.validIds(), e);
            }
        }
        return new Chain(hops.get(0), hops);
    }

    /** {@link #parseConfig(Reader)} over a String. */
    public static Chains parseConfig(String text) {
        return parseConfig(new StringReader(text == null ? "" : text));
    }

    /**
     * Parses the config form (see the class comment) on top of the defaults.
     *
     * @throws InvalidChainException naming the line for a malformed line, an unknown backend, a chain that
     *                               does not belong to its key, or a key given twice
     */
    public static Chains parseConfig(Reader reader) {
        Map<BackendId, Chain> m = new EnumMap<>(DEFAULTS.chains);
        EnumMap<BackendId, Integer> seenAt = new EnumMap<>(BackendId.class);
        try (BufferedReader r = new BufferedReader(reader)) {
            String line;
            int no = 0;
            while ((line = r.readLine()) != null) {
                no++;
                int hash = line.indexOf('#');
                String l = (hash >= 0 ? line.substring(0, hash) : line).trim();
                if (l.isEmpty()) {
                    continue;
                }
                int eq = l.indexOf('=');
                if (eq < 0) {
                    eq = l.indexOf(':');
                }
                if (eq <= 0) {
                    throw new InvalidChainException("Fallback chain config line " + no + " '" + line.trim()
                            + "' is not 'requested = hop,hop'", "write e.g. webgpu = webgpu,webnn-gpu,wasm");
                }
                String keyText = l.substring(0, eq).trim();
                BackendId key;
                try {
                    key = BackendId.parse(keyText);
                } catch (UnknownBackendException e) {
                    throw new InvalidChainException("Fallback chain config line " + no + ": unknown backend '" + keyText + "'",
                            "use one of: " + BackendId.validIds(), e);
                }
                if (seenAt.containsKey(key)) {
                    throw new InvalidChainException("Fallback chain config line " + no + " sets the chain of " + key
                            + " again (first set on line " + seenAt.get(key) + ")", "keep one line per requested backend");
                }
                seenAt.put(key, no);
                String value = l.substring(eq + 1).trim();
                Chain parsed;
                try {
                    parsed = parse(value);
                    if (parsed.requested() != key) {
                        parsed = parse(key.id() + "," + value);
                    }
                } catch (InvalidChainException e) {
                    throw new InvalidChainException("Fallback chain config line " + no + ": " + e.getMessage(), e.fix(), e);
                }
                m.put(key, parsed);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Chains(m);
    }

    /** The config form of these chains, one line per requested backend (parseable by {@link #parseConfig}). */
    public String toConfig() {
        StringBuilder sb = new StringBuilder();
        chains.forEach((k, v) -> sb.append(k.id()).append(" = ").append(v.toCsv()).append('\n'));
        return sb.toString();
    }

    private static Map<BackendId, Chain> defaultMap() {
        Map<BackendId, Chain> m = new EnumMap<>(BackendId.class);
        put(m, WEBGPU, WEBNN_GPU, WEBNN_CPU, WASM);
        put(m, WEBNN_GPU, WEBNN_CPU, WASM);
        put(m, WEBNN_NPU, WEBNN_GPU, WEBNN_CPU, WASM);
        put(m, WEBNN_CPU, WASM);
        put(m, WASM);
        put(m, CUDA, OPENVINO, CPU);
        put(m, ROCM, OPENVINO, CPU);
        put(m, COREML, CPU);
        put(m, OPENVINO, CPU);
        put(m, NATIVE_WEBGPU, CPU);
        put(m, CPU);
        for (BackendId b : BackendId.values()) {
            if (!m.containsKey(b)) {
                throw new IllegalStateException("no default fallback chain for " + b);
            }
        }
        return m;
    }

    private static void put(Map<BackendId, Chain> m, BackendId... hops) {
        m.put(hops[0], Chain.of(hops));
    }
}
