/**
 * The Java side of the inference page: where its assets live on the classpath ({@link dev.accelbridge.browser.page.PageAssets}),
 * the capability probe a page sends when it joins ({@link dev.accelbridge.browser.page.PageProbe}, mapped to core
 * {@link dev.accelbridge.core.Availability} with the browser's own evidence), and the binary frame envelope of the
 * page protocol ({@link dev.accelbridge.browser.page.FrameCodec}). The page itself lives in {@code src/main/web/page}
 * and onnxruntime-web's dist files are copied next to it at build time from the pinned npm package.
 */
package dev.accelbridge.browser.page;
