package dev.accelbridge.bridge.hub;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.core.GpuLedger;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A page's release answer read as counts: the case's own bytes from its window, and anything that is no count unknown. */
class ReleasedTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Released read(String json) throws Exception {
        return Released.of(JSON.readTree(json.replace('\'', '"')));
    }

    @Test
    void theCasesBytesAreCountedFromWhatWasLiveWhenItsWindowOpened() throws Exception {
        Released r = read("{'memory':{'usedJSHeapSize':1000},'ledger':{'gpu':{'baselineBytes':100,'peakLiveBytes':600,'afterLiveBytes':180,"
                + "'allocatedBytes':700,'largestBufferBytes':400,'buffers':5,'limits':{'maxBufferSize':1024,'maxStorageBufferBindingSize':512}},"
                + "'wasmBeforeBytes':65536,'wasmAfterBytes':131072},'holding':{'gpuLiveBytes':180}}");
        assertThat(r.gpu()).isEqualTo(new GpuLedger(500, 700, 80, 400, 5, 1024, 512));
        assertThat(r.jsHeapBytes()).isEqualTo(1000);
        assertThat(r.wasmGrowthBytes()).isEqualTo(65536);
        assertThat(r.gpuLiveBytes()).isEqualTo(180);
        // the first case of a page instantiates the memory: all of it is the case's growth
        assertThat(read("{'ledger':{'wasmBeforeBytes':null,'wasmAfterBytes':4096}}").wasmGrowthBytes()).isEqualTo(4096);
        // released below where it began (another case's buffer collected meanwhile): nothing left, not a negative count
        assertThat(read("{'ledger':{'gpu':{'baselineBytes':100,'peakLiveBytes':100,'afterLiveBytes':20,'allocatedBytes':0,'largestBufferBytes':0,"
                + "'buffers':0}}}").gpu().leftLiveBytes()).isZero();
    }

    @Test
    void whatIsNoCountIsUnknownNeverZero() throws Exception {
        assertThat(read("{}")).isEqualTo(Released.UNKNOWN);
        // an overlapped window (a session sent ahead) has no GPU figures
        assertThat(read("{'ledger':{'gpu':null,'overlapped':true,'wasmAfterBytes':10}}").gpu()).isNull();
        for (String bad : new String[] {"-1", "1.5", "'12'", "1e300", "true", "9007199254740993000"}) {
            Released r = read("{'memory':{'usedJSHeapSize':" + bad + "},'ledger':{'gpu':{'baselineBytes':0,'peakLiveBytes':" + bad
                    + ",'afterLiveBytes':0,'allocatedBytes':0,'largestBufferBytes':0,'buffers':0},'wasmAfterBytes':" + bad + "}}");
            assertThat(r.gpu()).as(bad).isNull();
            assertThat(r.jsHeapBytes()).as(bad).isEqualTo(-1);
            assertThat(r.wasmAfterBytes()).as(bad).isEqualTo(-1);
        }
        // a peak below its own baseline is no ledger
        assertThat(read("{'ledger':{'gpu':{'baselineBytes':100,'peakLiveBytes':50,'afterLiveBytes':0,'allocatedBytes':0,'largestBufferBytes':0,"
                + "'buffers':0}}}").gpu()).isNull();
    }
}
