package dev.accelbridge.reports.predict;

import dev.accelbridge.core.GpuLedger;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A memory fit from a measured ledger: the same model's figures as they were, another's scaled, every check with its numbers. */
class MemoryFitTest {
    /** bert-mini on JSEP as measured here: 1.1 MiB peak on 625.8 KiB of weights, its 202 KiB embedding in a 256 KiB bucket. */
    static final GpuLedger SMALL = new GpuLedger(1_101_000, 1_363_000, 397_700, 262_144, 175, 1L << 30, 128L << 20);
    static final MemoryFit.Sizes SMALL_SIZES = new MemoryFit.Sizes(640_800, 206_848);

    @Test
    void fromASmallerModelThePeakScalesByWeightsAndTheLargestBufferIsRoundedAsTheReferencesWas() {
        MemoryFit.Sizes big = new MemoryFit.Sizes(346_600_000, 9_437_184);
        MemoryFit f = MemoryFit.predict("big", big, "small", "key", SMALL, SMALL_SIZES, false,
                new MemoryFit.DeviceClass("laptop", 1L << 30, 1L << 30, 128L << 20));
        assertThat(f.peakBytes()).isEqualTo(Math.round(1_101_000 * (346_600_000 / 640_800.0)));
        assertThat(f.largestBufferBytes()).as("its largest weight, rounded up as the reference's was").isEqualTo(Math.round(9_437_184 * (262_144 / 206_848.0)));
        assertThat(f.verdict()).isEqualTo(MemoryFit.Verdict.FITS);
        assertThat(f.reasons()).hasSize(3);
        assertThat(f.measuredItself()).isFalse();
        assertThat(f.actual()).isNull();
        assertThat(f.describe()).startsWith("PREDICTION (not a measurement)").contains("small's measured ledger", "scaled by weights")
                .doesNotContain("measured since");
        GpuLedger own = new GpuLedger(541_600_000, 542_800_000, 0, 12_582_912, 293, 1L << 30, 128L << 20);
        assertThat(f.checkedAgainst(own).describe()).contains("measured since: peak GPU 516.5 MiB, largest buffer 12.0 MiB (predicted / measured: 1.100");
    }

    @Test
    void aCheckThatFailsNamesItsNumbersAndAnUnsaidDeviceLeavesItUnknown() {
        MemoryFit.Sizes big = new MemoryFit.Sizes(160_000_000, 160_000_000);
        MemoryFit f = MemoryFit.predict("big", big, "small", "key", SMALL, SMALL_SIZES, false,
                new MemoryFit.DeviceClass("phone", 256L << 20, 1L << 30, 128L << 20));
        assertThat(f.verdict()).isEqualTo(MemoryFit.Verdict.DOES_NOT_FIT);
        assertThat(f.reasons()).anySatisfy(r -> assertThat(r).contains("above the device's 256.0 MiB"))
                .anySatisfy(r -> assertThat(r).contains("above the maxStorageBufferBindingSize of 134,217,728 bytes"))
                .anySatisfy(r -> assertThat(r).contains("within the maxBufferSize"));
        MemoryFit unknown = MemoryFit.predict("big", big, "small", "key", SMALL, SMALL_SIZES, false, new MemoryFit.DeviceClass("?", -1, -1, -1));
        assertThat(unknown.verdict()).isEqualTo(MemoryFit.Verdict.UNKNOWN);
        assertThat(unknown.reasons()).singleElement().asString().contains("no memory and no buffer limit");
    }

    @Test
    void theModelsOwnLedgerIsTakenAsMeasuredAndAnActivationScalesLikeThePeak() {
        MemoryFit f = MemoryFit.predict("small", SMALL_SIZES, "small", "key", SMALL, SMALL_SIZES, true,
                new MemoryFit.DeviceClass("laptop", 1_000_000, -1, -1));
        assertThat(f.peakBytes()).isEqualTo(1_101_000);
        assertThat(f.measuredItself()).isTrue();
        assertThat(f.verdict()).isEqualTo(MemoryFit.Verdict.DOES_NOT_FIT);
        // a convnet's largest buffer is an activation five times its largest known tensor: it grows as the weights do
        GpuLedger conv = new GpuLedger(992_700, 994_100, 0, 262_144, 51, -1, -1);
        MemoryFit g = MemoryFit.predict("big", new MemoryFit.Sizes(2_600_000, 1_000_000), "small", "key", conv, new MemoryFit.Sizes(98_700, 49_152),
                false, new MemoryFit.DeviceClass("x", -1, -1, -1));
        assertThat(g.largestBufferBytes()).isEqualTo(Math.round(262_144 * (2_600_000 / 98_700.0)));
    }
}
