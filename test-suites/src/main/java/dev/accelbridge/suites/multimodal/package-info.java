/**
 * The multimodal suite: a CLIP-style two-tower model ({@link dev.accelbridge.suites.multimodal.ClipModel}), an image
 * encoder and a text encoder into one embedding space, run as the pair (the image-text similarity matrix) and as each
 * tower on its own.
 */
package dev.accelbridge.suites.multimodal;
