package dev.accelbridge.browser.observe;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.core.PublicApi;

import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the observer saw in a page: every onnxruntime-web session it made (at most 64; more are counted), the
 * onnxruntime-web WebAssembly modules it instantiated from a URL, and what the observer could not do ({@code notes}).
 *
 * @param realm           where the report was read (the page's document, a frame, a worker), as the reader knows it: never
 *                        taken from the page
 * @param document        the realm's own id (a navigation makes another document, observed afresh)
 * @param sessions        the sessions, in the order the realm made them
 * @param droppedSessions sessions past the bound, counted only
 * @param modules         the URLs of the onnxruntime-web WebAssembly modules instantiated (none when the app handed the
 *                        binary itself, as transformers.js does)
 * @param notes           what the observer met and passed over, in its words
 * @param started         the workers the realm started, as it asked for them (at most 32)
 * @param timerStepMs     the smallest step of the realm's clock ({@code performance.now} as it was before the page's
 *                        scripts) the observer measured, in ms; null where it was not: a run within a few steps of it is
 *                        the clock's granularity, not the model's time
 */
@PublicApi
public record Observed(Realm realm, String document, List<Session> sessions, int droppedSessions, List<String> modules, List<String> notes,
                       List<Started> started, Double timerStepMs) {
    /** Copies the lists. */
    public Observed {
        realm = realm == null ? Realm.PAGE : realm;
        sessions = sessions == null ? List.of() : List.copyOf(sessions);
        modules = modules == null ? List.of() : List.copyOf(modules);
        notes = notes == null ? List.of() : List.copyOf(notes);
        started = started == null ? List.of() : started.stream().filter(java.util.Objects::nonNull).toList();
    }

    /** The same report, read in {@code where}. */
    public Observed in(Realm where) {
        return new Observed(where, document, sessions, droppedSessions, modules, notes, started, timerStepMs);
    }

    /**
     * Where an app computes: its page's own document, a frame in it, or a dedicated worker (its own, transformers.js's,
     * onnxruntime-web's proxy).
     *
     * @param kind which
     * @param url  its URL as the browser names it ({@code blob:} for a worker made from a blob)
     */
    public record Realm(Kind kind, String url) {
        /** The page's own document, where its reader did not say its URL. */
        public static final Realm PAGE = new Realm(Kind.PAGE, "");

        /** The kinds of realm. */
        public enum Kind {
            /** The page's own document. */
            PAGE,
            /** A frame in it. */
            FRAME,
            /** A dedicated worker. */
            WORKER;

            /** The kind in a row's words: {@code page}, {@code frame}, {@code worker}. */
            public String word() {
                return name().toLowerCase(java.util.Locale.ROOT);
            }
        }

        /** How a row says where it ran: empty for the page, else "in a worker (URL)". */
        public String label() {
            return switch (kind) {
                case PAGE -> "";
                case FRAME -> "in a frame (" + url + ")";
                case WORKER -> "in a worker (" + url + ")";
            };
        }
    }

    /**
     * A thread or frame the visit saw and could not observe: what ran there is unseen, never absent.
     *
     * @param kind what it is ({@code worker}, {@code shared-worker}, {@code service-worker}, {@code frame})
     * @param url  its URL
     * @param why  why it was not entered
     */
    public record Unseen(String kind, String url, String why) {
        /** As a row's note says it. */
        public String describe() {
            return "a " + kind + " (" + url + ") was seen and not observed: " + why + "; whatever it computed is unseen";
        }
    }

    /**
     * A worker the realm started, as the page asked for it.
     *
     * @param kind {@code worker}, {@code shared-worker} or {@code service-worker}
     * @param url  the script's URL as given
     * @param type {@code classic} or {@code module}
     */
        public record Started(String kind, String url, String type) {
    }

    /**
     * One session: its model (sha256 and size of the bytes onnxruntime-web was given), the providers the app appended, the
     * engine of the build that made it, its creation's time, and its runs (at most 1000; values: {@link PageObserver#VALUE_BYTES}).
     *
     * @param id        its number in the page, from 1
     * @param sha256    the model's sha256 (null where the page has no WebCrypto)
     * @param byteLength the model's size
     * @param providers the providers appended, as onnxruntime-web names them
     * @param providerOptions each provider's options as the app gave them ({@code deviceType} for WebNN), in the same order
     * @param engine    {@code jsep}, {@code webgpu-ep} or {@code wasm}: which build's module made it
     * @param createdAt when the page asked for it, in ms since the epoch by the page's clock
     * @param createMs  the creation's wall time in the page
     * @param created   whether onnxruntime-web made it
     * @param released  whether the page released it
     * @param runCount  its runs, all of them
     * @param modelKept whether its bytes were kept (at most 64 MiB of models a page) for {@link PageObserver#model}
     * @param runs      its runs as recorded
     * @param config    its session config entries as onnxruntime-web added them (WebNN's {@code deviceType} among them)
     * @param context   the WebNN context it ran on, as the realm made it ({@code deviceType}, {@code powerPreference}, or
     *                  {@code gpuDevice} for one made from a GPUDevice); empty where none
     * @param optimization its graph optimization level as the app gave it ({@code disabled}, {@code basic}, {@code extended},
     *                  {@code all}), else null
     * @param adapter   the WebGPU adapter the realm got last before the session was made, as it named itself, else null
     * @param error     onnxruntime-web's words when it could not make the session, else null
     * @param ortWebVersion the onnxruntime-web release that made it, as the release said of itself when it loaded (its
     *                  {@code env.versions.web}; the last one the realm loaded before the session), else null
     * @param external  the external data files onnxruntime-web mounted for it (an LLM's weights), each by the path its
     *                  graph names
     */
        public record Session(int id, String sha256, long byteLength, List<String> providers, List<Map<String, String>> providerOptions,
                          String engine, Double createdAt, Double createMs, boolean created, boolean released, int runCount,
                          boolean modelKept, List<Run> runs, Map<String, String> config, Map<String, String> context, String optimization, ObservedAdapter adapter, String error, String ortWebVersion,
                          List<External> external) {
        /** Copies the lists. */
        public Session {
            sha256 = sha256OrNull(sha256); // a hash that is not one is none
            providers = providers == null ? List.of() : providers.stream().map(p -> p == null ? "" : p).toList();
            providerOptions = providerOptions == null ? List.of() : providerOptions.stream()
                    .map(Session::entries).toList();
            runs = runs == null ? List.of() : runs.stream().filter(java.util.Objects::nonNull).toList();
            config = entries(config);
            context = entries(context);
            external = external == null ? List.of() : external.stream().filter(java.util.Objects::nonNull).toList();
        }

        /** The bytes of its external data files, as the page said them (a file whose size was not said counts 0). */
        public long externalBytes() {
            return external.stream().mapToLong(e -> e.byteLength() == null ? 0 : e.byteLength()).sum();
        }

        private static Map<String, String> entries(Map<String, String> m) {
            if (m == null) {
                return Map.of();
            }
            Map<String, String> out = new java.util.LinkedHashMap<>();
            m.forEach((k, v) -> {
                if (k != null && v != null) {
                    out.put(k, v);
                }
            });
            return java.util.Collections.unmodifiableMap(out);
        }

        /**
         * The backend it ran on, from the providers it appended ({@code JS}, {@code WebGPU}: webgpu; none: wasm; WebNN by
         * the device its {@link #context} was made for: a GPUDevice's is {@code gpu}, none Chromium's default {@code cpu};
         * with no context seen, by the {@code deviceType} the app gave, else {@code cpu}); empty for a device type not known.
         */
        public Optional<BackendId> backend() {
            for (int i = 0; i < providers.size(); i++) {
                String n = providers.get(i) == null ? "" : providers.get(i).toLowerCase(java.util.Locale.ROOT);
                if (n.contains("webnn")) {
                    // an EP option where the app's release passed it so; onnxruntime-web 1.30 passes a session config entry
                    String device = !context.isEmpty() ? context.containsKey("gpuDevice") ? "gpu" : context.getOrDefault("deviceType", "cpu")
                            : i < providerOptions.size() && providerOptions.get(i).containsKey("deviceType")
                            ? providerOptions.get(i).get("deviceType") : config.getOrDefault("deviceType", "cpu");
                    return switch (device) {
                        case "gpu" -> Optional.of(BackendId.WEBNN_GPU);
                        case "npu" -> Optional.of(BackendId.WEBNN_NPU);
                        case "cpu" -> Optional.of(BackendId.WEBNN_CPU);
                        default -> Optional.empty();
                    };
                }
                if (n.contains("webgpu") || n.equals("js")) {
                    return Optional.of(BackendId.WEBGPU);
                }
            }
            return Optional.of(BackendId.WASM);
        }

        /** The engine as Accelbridge names it; empty for a build without WebGPU (plain wasm). */
        public Optional<OrtWebEngine> ortWebEngine() {
            return "jsep".equals(engine) ? Optional.of(OrtWebEngine.JSEP) : "webgpu-ep".equals(engine) ? Optional.of(OrtWebEngine.WEBGPU_EP)
                    : Optional.empty();
        }
    }

    /**
     * An external data file of a session's model, as onnxruntime-web mounted it.
     *
     * @param path       the path the graph names it by
     * @param byteLength its size (null when the page handed no bytes)
     * @param sha256     the sha256 of its bytes when mounted (null where the page has no WebCrypto)
     * @param kept       whether the realm held it for the reader (within the budget)
     */
        public record External(String path, Long byteLength, String sha256, boolean kept) {
        /** A hash that is not one is none. */
        public External {
            sha256 = sha256OrNull(sha256);
        }
    }

    /** {@code s} when it is a sha256 as the observer writes one (64 lower-case hex digits), else null. */
    static String sha256OrNull(String s) {
        return s != null && s.length() == 64 && s.chars().allMatch(c -> c >= '0' && c <= '9' || c >= 'a' && c <= 'f') ? s : null;
    }

    /**
     * One run: its wall time around onnxruntime-web's run in the page, its status code (0: ran), its inputs and outputs.
     *
     * @param ms      the run's wall time
     * @param code    onnxruntime's status (0 when it ran)
     * @param inputs  the inputs fed
     * @param outputs the outputs asked for, with what came back
     * @param through {@code run} ({@code _OrtRun}) or {@code binding} ({@code _OrtRunWithBinding}: IO binding, outputs
     *                that may stay on the GPU)
     * @param error   onnxruntime-web's words when the run failed, else null
     */
        public record Run(Double ms, Integer code, List<Tensor> inputs, List<Tensor> outputs, String through, String error) {
        /** Copies the lists. */
        public Run {
            inputs = inputs == null ? List.of() : inputs.stream().filter(java.util.Objects::nonNull).toList();
            outputs = outputs == null ? List.of() : outputs.stream().filter(java.util.Objects::nonNull).toList();
        }

        /** Whether it failed in the page (a status other than 0). */
        public boolean failed() {
            return code != null && code != 0;
        }
    }

    /**
     * The output a GPU-resident input is: the session (its number in the realm), the run of it (0: its first) and the output
     * by name, as the observer followed the GPU buffer from the one to the other.
     *
     * @param session the session's number in the realm
     * @param run     the run's index in that session (0: its first)
     * @param output  the output's name
     */
    public record Origin(int session, int run, String output) {
    }

    /**
     * A tensor of a run: its name, ONNX element type, shape and size, and its values (base64, little-endian) where they
     * were kept: runs while the realm has kept under {@link PageObserver#VALUE_BYTES} of values, host-side tensors only; up to 1 MiB in the report, above it held by the
     * realm for the driver to write to disk ({@link PageObserver#keepTensors}) within the budget it shares with the models,
     * {@code cut} past that.
     *
     * @param name       its name
     * @param type       its ONNX element type code
     * @param shape      its shape
     * @param byteLength its size in bytes
     * @param values     its bytes, base64, or null
     * @param cut        true when its values were over the bounds and not kept
     * @param held       the realm's id for its values when they are over the report's bound and held for the driver, or null
     * @param onDevice   true when it stayed on the GPU (or in WebNN): its shape is seen, and its values only where the app
     *                   read it back ({@code getData()}) in a run recorded with its values
     * @param from       for an input kept on the GPU, the output it is, followed by identity (the GPU buffer the app fed
     *                   back), or null where it is not known
     */
        public record Tensor(String name, Integer type, List<Long> shape, Long byteLength, String values, boolean cut, Integer held,
                             boolean onDevice, Origin from) {
        /**
         * Its shape as dimensions, when the page gave one that can be: every dimension said, none negative, their product
         * within a long; empty otherwise ({@code [null, 4]}, {@code [-4]}).
         */
        public Optional<long[]> dims() {
            if (shape == null || shape.size() > 64 || shape.stream().anyMatch(d -> d == null || d < 0)) {
                return Optional.empty();
            }
            long n = 1;
            for (long d : shape) {
                if (d != 0 && n > Long.MAX_VALUE / d) {
                    return Optional.empty();
                }
                n *= d;
            }
            return Optional.of(shape.stream().mapToLong(Long::longValue).toArray());
        }

        /**
         * As a named tensor with its values, when they were in the report and read as a tensor Accelbridge can hold: an
         * element type it knows, a shape that can be ({@link #dims}), bytes of exactly that size; empty otherwise, never
         * an exception (a page's values are a stranger's).
         */
        public Optional<NamedTensor> tensor() {
            if (values == null) {
                return Optional.empty();
            }
            try {
                return of(Base64.getDecoder().decode(values));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        }

        private Optional<NamedTensor> of(byte[] bytes) {
            Optional<long[]> d = dims();
            if (type == null || d.isEmpty()) {
                return Optional.empty();
            }
            try {
                return Optional.of(new NamedTensor(name == null ? "" : name, DType.fromOnnx(type), d.get(), bytes));
            } catch (RuntimeException e) { // an element type Accelbridge does not hold, or bytes not of the shape's size
                return Optional.empty();
            }
        }

        /** Whether its values were kept: in the report, or held by the realm for the driver. */
        public boolean hasValues() {
            return values != null || held != null;
        }

        /**
         * As a named tensor with its values: from the report, or from the file its held values were written to
         * ({@code files} by held id); empty when neither has them, or the file is not its size.
         */
        public Optional<NamedTensor> tensor(java.util.function.Function<Integer, Optional<java.nio.file.Path>> files) {
            if (values != null || held == null || byteLength == null) {
                return tensor();
            }
            return files.apply(held).flatMap(f -> {
                try {
                    byte[] b = java.nio.file.Files.readAllBytes(f);
                    return b.length == byteLength ? of(b) : Optional.<NamedTensor>empty();
                } catch (java.io.IOException e) {
                    return Optional.empty();
                }
            });
        }
    }
}
