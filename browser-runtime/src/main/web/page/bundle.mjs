// The onnxruntime-web bundle a page imports when its URL names none (a URL typed by hand): the pinned engine's. The bridge
// decides the engine (core's OrtWebEngine.PINNED) and names its bundle in every page URL it makes (?ortEntry=...); this is
// only the fallback, and PageProtocolMirrorTest holds it to the bridge's choice.
export const DEFAULT_ENTRY = 'ort.all.min.mjs';
