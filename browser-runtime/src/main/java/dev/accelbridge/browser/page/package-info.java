/**
 * The Java side of the inference page: its files on the classpath ({@link dev.accelbridge.browser.page.PageAssets}),
 * the onnxruntime-web releases it can load and their engines ({@link dev.accelbridge.browser.page.OrtWebBuild}, the
 * version axes). The page itself lives in {@code src/main/web/page} and onnxruntime-web's dist files are copied next to
 * it at build time from the pinned npm package; what it says and hears is bridge-server's page protocol
 * ({@code dev.accelbridge.bridge.protocol}).
 */
package dev.accelbridge.browser.page;
