/**
 * Code fetched at run time (onnxruntime-web releases and headless shells from the npm registry, ONNX Runtime jars from
 * Maven Central): kept in Accelbridge's cache as {@link dev.accelbridge.core.fetch.CacheEntry entries}, each fetched once
 * under a lock into a private folder and renamed into place, owned by the user who runs Accelbridge
 * ({@link dev.accelbridge.core.fetch.Ownership}), and held at every use to the {@link dev.accelbridge.core.fetch.TreeManifest
 * manifest} made when it was unpacked; a damaged entry is fetched again.
 */
package dev.accelbridge.core.fetch;
