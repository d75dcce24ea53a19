package dev.accelbridge.bridge.hub;

import dev.accelbridge.bridge.OutputBudget;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.bridge.protocol.FrameCodec;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.NamedTensor;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A chunked result being received (protocol v1, "chunked transfer"): the page's {@code result} header names every
 * output and its size, and the bytes follow in {@code result-chunk} frames. Each output is written straight into the
 * one array it ends up in, so the bridge holds one copy of each output and no frame ever holds a whole tensor. The header
 * is checked against the job's byte budget (derived from the model's declared outputs) and the heap left before anything
 * is allocated; a refusal fails the job at once with the size, the limit and what raises it.
 */
final class ResultAssembly {
    /** The most bytes one output may have: one Java array. */
    static final long MAX_TENSOR_BYTES = Integer.MAX_VALUE - 64;

    private final ObjectNode header;
    private final String[] names;
    private final DType[] dtypes;
    private final long[][] shapes;
    private final byte[][] data;
    private final long[] received;
    private long remaining;

    private ResultAssembly(ObjectNode header, String[] names, DType[] dtypes, long[][] shapes, byte[][] data, long total) {
        this.header = header;
        this.names = names;
        this.dtypes = dtypes;
        this.shapes = shapes;
        this.data = data;
        this.received = new long[data.length];
        this.remaining = total;
    }

    /**
     * Starts receiving the outputs {@code header} describes.
     *
     * @param budget   the most bytes this job's outputs may total
     * @param heapLeft the heap the JVM can still give
     * @throws PageJobException ({@code transfer}) when the outputs exceed the budget, one array or the heap left
     */
    static ResultAssembly begin(ObjectNode header, OutputBudget budget, long heapLeft) {
        JsonNode descs = header.path("tensors");
        int n = descs.size();
        String[] names = new String[n];
        DType[] dtypes = new DType[n];
        long[][] shapes = new long[n][];
        long total = 0;
        for (int i = 0; i < n; i++) {
            JsonNode d = descs.get(i);
            names[i] = d.path("name").asText("");
            try {
                dtypes[i] = DType.parse(d.path("dtype").asText("?"));
            } catch (AccelbridgeException e) {
                throw refused("output '" + names[i] + "' has unsupported dtype '" + d.path("dtype").asText() + "'");
            }
            shapes[i] = new long[d.path("shape").size()];
            for (int k = 0; k < shapes[i].length; k++) {
                shapes[i][k] = d.path("shape").get(k).asLong(-1);
            }
            long len = d.path("byteLength").asLong(-1);
            long need;
            try {
                need = NamedTensor.elementCount(shapes[i]) * dtypes[i].byteSize();
            } catch (AccelbridgeException e) {
                throw refused("output '" + names[i] + "' has shape " + Arrays.toString(shapes[i]));
            }
            if (len != need) {
                throw refused("output '" + names[i] + "' announces " + len + " bytes for shape " + Arrays.toString(shapes[i])
                        + " of " + dtypes[i].webName() + " (" + need + " needed)");
            }
            if (len > MAX_TENSOR_BYTES) {
                throw refused(String.format(Locale.ROOT, "output '%s' has %,d bytes, more than one array holds (%,d)", names[i],
                        len, MAX_TENSOR_BYTES));
            }
            total += len;
        }
        String over = budget.exceededBy(total);
        if (over != null) {
            throw refused(over);
        }
        if (total > heapLeft) {
            throw refused(String.format(Locale.ROOT, "the page's outputs total %,d bytes, more than the %,d bytes of heap the JVM has "
                    + "left; give it more (ACCELBRIDGE_JAVA_OPTS=-Xmx...)", total, heapLeft));
        }
        byte[][] data = new byte[n][];
        for (int i = 0; i < n; i++) {
            data[i] = new byte[(int) (NamedTensor.elementCount(shapes[i]) * dtypes[i].byteSize())];
        }
        return new ResultAssembly(header, names, dtypes, shapes, data, total);
    }

    /**
     * Copies one chunk into its output.
     *
     * @return true when every byte of every output has arrived
     * @throws PageJobException ({@code transfer}) for a chunk outside its output or one that repeats bytes
     */
    boolean accept(int tensor, long offset, ByteBuffer payload) {
        if (tensor < 0 || tensor >= data.length) {
            throw refused("a result chunk names output " + tensor + " of " + data.length);
        }
        int len = payload.remaining();
        if (offset != received[tensor] || offset + len > data[tensor].length) {
            throw refused("a result chunk of output '" + names[tensor] + "' at " + offset + " (+" + len + ") does not follow the "
                    + received[tensor] + " bytes received of " + data[tensor].length);
        }
        payload.duplicate().get(data[tensor], (int) offset, len);
        received[tensor] += len;
        remaining -= len;
        return remaining == 0;
    }

    /** True when the header announced no bytes at all (every output empty). */
    boolean complete() {
        return remaining == 0;
    }

    /** The result as the frame it stands for. */
    FrameCodec.Frame frame() {
        List<NamedTensor> out = new ArrayList<>();
        for (int i = 0; i < data.length; i++) {
            out.add(new NamedTensor(names[i], dtypes[i], shapes[i], data[i]));
        }
        return new FrameCodec.Frame(header, List.copyOf(out), 0);
    }

    static PageJobException refused(String why) {
        return new PageJobException(PageJobException.Kind.TRANSFER, "transfer", why);
    }
}
