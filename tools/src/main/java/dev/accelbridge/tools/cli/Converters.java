package dev.accelbridge.tools.cli;

import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.WebGpuAdapter;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.BrowserSpec;
import dev.accelbridge.core.Bytes;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.Limits;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.RuntimeOption;
import dev.accelbridge.core.SamplingDepth;
import dev.accelbridge.core.VersionAxes;
import dev.accelbridge.core.VersionAxis;
import dev.accelbridge.run.Shard;
import dev.accelbridge.suites.ModelSize;
import picocli.CommandLine.ITypeConverter;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.TypeConversionException;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * picocli converters onto the typed vocabulary: a bad value is refused while the command line is parsed, with one
 * line naming the option's valid values (exit 2), before anything runs.
 */
final class Converters {
    private Converters() {
    }

    private static <T> T convert(String value, java.util.function.Function<String, T> parse) {
        if (value == null || value.isBlank()) {
            throw new TypeConversionException("the value is empty");
        }
        try {
            return parse.apply(value);
        } catch (AccelbridgeException e) {
            throw new TypeConversionException(e.oneLine());
        }
    }

    /** A backend id ({@code webgpu}, {@code cpu}, ...). */
    static final class Backend implements ITypeConverter<BackendId> {
        @Override
        public BackendId convert(String value) {
            return Converters.convert(value, BackendId::parse);
        }
    }

    /** A precision ({@code fp32}, {@code fp16}, {@code int8}). */
    static final class PrecisionId implements ITypeConverter<Precision> {
        @Override
        public Precision convert(String value) {
            return Converters.convert(value, Precision::parse);
        }
    }

    /** One session option and the values to sweep it at: {@code outputs=cpu,gpu-buffer} ({@link dev.accelbridge.core.RuntimeOption}). */
    static final class RuntimeOptionArg implements ITypeConverter<Map.Entry<RuntimeOption, List<String>>> {
        @Override
        public Map.Entry<RuntimeOption, List<String>> convert(String value) {
            int eq = value.indexOf('=');
            if (eq <= 0) {
                throw new TypeConversionException("'" + value + "' is not NAME=VALUE[,VALUE] (e.g. outputs=cpu,gpu-buffer)");
            }
            return Converters.convert(value, v -> {
                RuntimeOption o = RuntimeOption.named(v.substring(0, eq));
                return Map.entry(o, java.util.Arrays.stream(v.substring(eq + 1).split(",")).map(o::check).distinct().toList());
            });
        }
    }

    /** A batch size: a whole number from 1 to 4096. */
    static final class BatchSize implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            int n = atLeast(value, 1);
            if (n > Limits.MAX_BATCH) {
                throw new TypeConversionException("a batch size above " + Limits.MAX_BATCH + " (" + n + ") is not a browser-sized batch");
            }
            return n;
        }
    }

    /** A browser Accelbridge can launch. */
    static final class Browser implements ITypeConverter<BrowserKind> {
        @Override
        public BrowserKind convert(String value) {
            return Converters.convert(value, BrowserKind::parse);
        }
    }

    /** A browser at a major version or the one installed, for run's --browser ({@code chromium-shell@141}). */
    static final class BrowserAt implements ITypeConverter<BrowserSpec> {
        @Override
        public BrowserSpec convert(String value) {
            return Converters.convert(value, BrowserSpec::parse);
        }
    }

    /** A version of the axis whose {@code run} option is {@code flag}, checked by the lane and the axis. */
    abstract static class AxisVersion implements ITypeConverter<String> {
        private final String flag;

        AxisVersion(String flag) {
            this.flag = flag;
        }

        @Override
        public String convert(String value) {
            return Converters.convert(value, v -> {
                VersionAxis a = VersionAxes.byFlag(flag).orElseThrow(() -> new AccelbridgeException("No version axis has the option " + flag,
                        "rebuild with the module that declares it"));
                return LaneId.anyOn(a.side()).with(a, v.trim()).version(a);
            });
        }
    }

    /** An onnxruntime-web version for --ort-web ({@code 1.22.0}). */
    static final class OrtWebVersion extends AxisVersion {
        OrtWebVersion() {
            super("--ort-web");
        }
    }

    /** An onnxruntime-web engine for --engines ({@code webgpu-ep}). */
    static final class OrtWebEngine extends AxisVersion {
        OrtWebEngine() {
            super("--engines");
        }
    }

    /** An ONNX Runtime version for --ort ({@code 1.22.0}). */
    static final class OrtVersion extends AxisVersion {
        OrtVersion() {
            super("--ort");
        }
    }

    /** A model family for --family (text, vision, audio, text-generation, other). */
    static final class Family implements ITypeConverter<ModelFamily> {
        @Override
        public ModelFamily convert(String value) {
            return Converters.convert(value, v -> {
                try {
                    return ModelFamily.parse(v);
                } catch (AccelbridgeException e) {
                    throw new AccelbridgeException("Unknown family '" + v + "'", "use one of: " + Arrays.stream(ModelFamily.values())
                            .map(ModelFamily::id).collect(Collectors.joining(", ")));
                }
            });
        }
    }

    /** A built-in suite for --suites (text, vision, audio, text-generation, ops). */
    static final class Suite implements ITypeConverter<ModelFamily> {
        @Override
        public ModelFamily convert(String value) {
            return Converters.convert(value, v -> {
                ModelFamily f = ModelFamily.parse(v);
                if (f == ModelFamily.OTHER) {
                    throw new AccelbridgeException("'other' is not a built-in suite", "use text, vision, audio or ops");
                }
                return f;
            });
        }
    }

    /** How browsers are launched. */
    static final class Driver implements ITypeConverter<DriverKind> {
        @Override
        public DriverKind convert(String value) {
            return Converters.convert(value, DriverKind::parse);
        }
    }

    /** small or large. */
    static final class Size implements ITypeConverter<ModelSize> {
        @Override
        public ModelSize convert(String value) {
            return Converters.convert(value, ModelSize::parse);
        }
    }

    /** A size in bytes: {@code 4GiB}, {@code 512MiB}, a number ({@link dev.accelbridge.core.Bytes#parse}). */
    static final class ByteSize implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return Converters.convert(value, Bytes::parse);
        }
    }

    /** {@code I/N}: a part of the run. */
    static final class ShardArg implements ITypeConverter<Shard> {
        @Override
        public Shard convert(String value) {
            return Converters.convert(value, Shard::parse);
        }
    }

    /** A positive number of seconds. */
    /** Seconds, possibly fractional, at least 0 ({@code --min-duration 0.5}). */
    static final class FractionalSeconds implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            double s;
            try {
                s = Double.parseDouble(value.trim());
            } catch (NumberFormatException e) {
                throw new picocli.CommandLine.TypeConversionException("'" + value + "' is not a number of seconds (e.g. 0.5)");
            }
            if (!(s >= 0) || s > 600) {
                throw new picocli.CommandLine.TypeConversionException("'" + value + "' must be 0 to 600 seconds (e.g. 0.5)");
            }
            return Duration.ofNanos(Math.round(s * 1e9));
        }
    }

    static final class Seconds implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return Duration.ofSeconds(atLeast(value, 1));
        }
    }

    private static int atLeast(String value, int min) {
        return convert(value, v -> {
            int n;
            try {
                n = Integer.parseInt(v.trim());
            } catch (NumberFormatException e) {
                throw new AccelbridgeException("'" + v + "' is not a whole number", "give a number of at least " + min);
            }
            if (n < min) {
                throw new AccelbridgeException(min == 0 ? "the value must not be negative, got " + n
                        : "the value must be at least " + min + ", got " + n, "give a number of at least " + min);
            }
            return n;
        });
    }

    /** A count of at least one. */
    static final class Positive implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return atLeast(value, 1);
        }
    }

    /** A count of at least zero. */
    static final class NonNegative implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return atLeast(value, 0);
        }
    }

    /** A relative change: "0.1" or "10%". */
    static final class Fraction implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            return Converters.convert(value, v -> {
                String t = v.trim();
                double f;
                try {
                    f = t.endsWith("%") ? Double.parseDouble(t.substring(0, t.length() - 1)) / 100 : Double.parseDouble(t);
                } catch (NumberFormatException e) {
                    throw new AccelbridgeException("'" + v + "' is not a number", "give a fraction like 0.1 or a percentage like 10%");
                }
                if (!(f > 0) || f > 10) {
                    throw new AccelbridgeException("the threshold must be above 0 (and at most 1000 %), got " + v,
                            "give a fraction like 0.1 or a percentage like 10%");
                }
                return f;
            });
        }
    }

    /** {@code --webgpu-adapter}. */
    static final class Depth implements ITypeConverter<SamplingDepth> {
        @Override
        public SamplingDepth convert(String value) {
            return Converters.convert(value, SamplingDepth::parse);
        }
    }

    static final class Adapter implements ITypeConverter<WebGpuAdapter> {
        @Override
        public WebGpuAdapter convert(String value) {
            return Converters.convert(value, WebGpuAdapter::parse);
        }
    }
}
