/**
 * The vision suite: a convnet classifier ({@link dev.accelbridge.suites.vision.ConvNetModel}) fed by a
 * generated, resized and ImageNet-normalised RGB image ({@link dev.accelbridge.suites.vision.Images}).
 */
package dev.accelbridge.suites.vision;
