package dev.accelbridge.bridge.protocol;

import dev.accelbridge.core.PublicApi;

import java.util.List;

/**
 * A generation job ({@code generate}): the cold generation, {@code warmups} more, {@code iterations} timed ones and the
 * teacher-forced pass of the page's decode loop, the prompt in the frame; answered with a {@code result} as a run is.
 *
 * @param session          the decoder's session
 * @param warmups          the untimed generations after the cold one
 * @param warmupDurationMs the least time the warm-up takes
 * @param iterations       the timed generations
 * @param minDurationMs    the least time the timed generations take together
 * @param maxSamples       the most timed generations
 * @param chunkBytes       the largest part of a chunked result
 * @param generation       what to generate and the decoder's layout
 */
@PublicApi
public record GenerateJob(String session, int warmups, long warmupDurationMs, int iterations, long minDurationMs, int maxSamples,
                          int chunkBytes, Spec generation) implements ToPage {
    @Override
    public MessageKind kind() {
        return MessageKind.GENERATE;
    }

    /**
     * The generation: the new tokens, the decoder's input and output names, its cache (each past fed back from its
     * present), the cache's element type ({@code float32}, {@code float16}), an encoder's session to make beside it, and
     * the tokens a teacher-forced pass feeds (none: the cold generation's own).
     */
    public record Spec(int newTokens, String inputIds, String attentionMask, String positionIds, String logits, int kvHeads,
                       int headDim, String cacheType, String encoderHidden, String useCacheBranch, Encoder encoder,
                       List<Cache> cache, long[] teacher) {
        /** Copies the list. */
        public Spec {
            cache = List.copyOf(cache);
        }
    }

    /** An encoder-decoder's encoder: its model's URL and name, the input it takes and the output fed to the decoder. */
    public record Encoder(String url, String name, String features, String output) {
    }

    /** One cache tensor of the decoder: fed as {@code past}, given back as {@code present}. */
    public record Cache(String past, String present) {
    }
}
