package dev.accelbridge.suites.vision;

/**
 * The vision suite's input: a deterministic RGB test image drawn in Java (colour gradients, a disc, a
 * rectangle and stripes, no AWT so it is the same on every JDK), resized with bilinear interpolation
 * (half-pixel centres, as PIL/torchvision) and normalised with the ImageNet mean and std into NCHW float32.
 */
public final class Images {
    /** ImageNet channel means (RGB). */
    public static final float[] MEAN = {0.485f, 0.456f, 0.406f};
    /** ImageNet channel standard deviations (RGB). */
    public static final float[] STD = {0.229f, 0.224f, 0.225f};

    private Images() {
    }

    /** A {@code [3][h][w]} image with values in 0..255 (planar RGB). */
    public static float[][][] testPattern(int w, int h) {
        float[][][] img = new float[3][h][w];
        double cx = w * 0.38;
        double cy = h * 0.42;
        double r = Math.min(w, h) * 0.22;
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                double fx = x / (double) (w - 1);
                double fy = y / (double) (h - 1);
                double red = 255 * fx;
                double green = 255 * fy;
                double blue = 255 * (1 - 0.5 * (fx + fy));
                if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r) { // a yellow disc
                    red = 250;
                    green = 210;
                    blue = 30;
                }
                if (x > w * 0.6 && x < w * 0.9 && y > h * 0.55 && y < h * 0.85) { // a dark red rectangle
                    red = 140;
                    green = 20;
                    blue = 40;
                }
                if (y > h * 0.9 && (x / Math.max(1, w / 32)) % 2 == 0) { // stripes along the bottom
                    red = green = blue = 255;
                }
                img[0][y][x] = (float) red;
                img[1][y][x] = (float) green;
                img[2][y][x] = (float) blue;
            }
        }
        return img;
    }

    /** Bilinear resize of a planar image with half-pixel centres (no antialiasing). */
    public static float[][][] resizeBilinear(float[][][] src, int outW, int outH) {
        int c = src.length;
        int inH = src[0].length;
        int inW = src[0][0].length;
        float[][][] out = new float[c][outH][outW];
        double sy = inH / (double) outH;
        double sx = inW / (double) outW;
        for (int y = 0; y < outH; y++) {
            double fy = Math.max(0, (y + 0.5) * sy - 0.5);
            int y0 = Math.min((int) fy, inH - 1);
            int y1 = Math.min(y0 + 1, inH - 1);
            double wy = fy - y0;
            for (int x = 0; x < outW; x++) {
                double fx = Math.max(0, (x + 0.5) * sx - 0.5);
                int x0 = Math.min((int) fx, inW - 1);
                int x1 = Math.min(x0 + 1, inW - 1);
                double wx = fx - x0;
                for (int ch = 0; ch < c; ch++) {
                    float[][] p = src[ch];
                    double top = p[y0][x0] * (1 - wx) + p[y0][x1] * wx;
                    double bottom = p[y1][x0] * (1 - wx) + p[y1][x1] * wx;
                    out[ch][y][x] = (float) (top * (1 - wy) + bottom * wy);
                }
            }
        }
        return out;
    }

    /** Scales 0..255 to 0..1, subtracts the ImageNet mean and divides by the std: NCHW data for batch 1. */
    public static float[] normalize(float[][][] img) {
        int h = img[0].length;
        int w = img[0][0].length;
        float[] out = new float[3 * h * w];
        for (int ch = 0; ch < 3; ch++) {
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) {
                    out[(ch * h + y) * w + x] = (img[ch][y][x] / 255f - MEAN[ch]) / STD[ch];
                }
            }
        }
        return out;
    }

    /** The suite input: a {@code 4*size}-pixel test pattern resized to {@code size} and normalised, NCHW. */
    public static float[] pixelValues(int size) {
        return normalize(resizeBilinear(testPattern(size * 4, size * 4), size, size));
    }

    /** Two items of {@link #pixelValues}: the test pattern and its mirror image, {@code [2, 3, size, size]} row-major. */
    public static float[] patternAndMirror(int size) {
        float[] a = pixelValues(size);
        float[] both = new float[a.length * 2];
        System.arraycopy(a, 0, both, 0, a.length);
        for (int i = 0; i < a.length; i++) {
            int x = i % size;
            both[a.length + i] = a[i - x + (size - 1 - x)];
        }
        return both;
    }
}
