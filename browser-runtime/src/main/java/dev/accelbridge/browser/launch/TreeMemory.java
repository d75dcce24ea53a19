package dev.accelbridge.browser.launch;

import dev.accelbridge.core.PublicApi;

import java.util.Map;

/**
 * A browser's resident memory at one moment: over its whole process tree, and by process type ({@code browser} for its
 * main process, else the type its command line gives: {@code renderer}, {@code gpu-process}, {@code utility}, {@code tab}).
 *
 * @param totalBytes the tree's sum
 * @param byType     the sum per type
 */
@PublicApi
public record TreeMemory(long totalBytes, Map<String, Long> byType) {
    /** The type of the browser's main process. */
    public static final String BROWSER = "browser";

    public TreeMemory {
        byType = Map.copyOf(byType);
    }
}
