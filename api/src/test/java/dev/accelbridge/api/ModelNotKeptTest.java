package dev.accelbridge.api;

import dev.accelbridge.browser.observe.Observed;
import dev.accelbridge.browser.observe.ReportedRealms;
import dev.accelbridge.browser.observe.VisitReadings;
import dev.accelbridge.observe.ObservedJudge;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Why a session's model was not kept is said as it was (pure: the page's report is given as a driver hands it over, and
 * the page answers nothing more, as one that has left). Found when tried: a page that released its session and left at
 * once read as "not kept: the visit keeps at most 4.0 GiB" though the page left first.
 */
class ModelNotKeptTest {
    private static String session(int id, boolean held) {
        return "{\"id\":" + id + ",\"sha256\":null,\"byteLength\":133000000,\"providers\":[],\"providerOptions\":[],"
                + "\"engine\":\"wasm\",\"createdAt\":1.0,\"createMs\":2.0,\"created\":true,\"released\":true,\"runCount\":0,"
                + "\"modelKept\":" + held + ",\"runs\":[],\"config\":{},\"error\":null,\"ortWebVersion\":\"1.22.0\",\"external\":[]}";
    }

    @Test
    void aModelThePageLetGoIsNotSaidToBeOverTheBudget(@TempDir Path dir) {
        String report = "{\"document\":\"d1\",\"sessions\":[" + session(1, true) + "," + session(2, false)
                + "],\"droppedSessions\":0,\"modules\":[],\"notes\":[],\"started\":[]}";
        VisitReadings readings = new VisitReadings(dir, 4L << 30);
        readings.read(ReportedRealms.page("http://a/", report), () -> "http://a/");
        VisitReadings.Document d = assertThat(readings.documents()).singleElement().actual();
        Observed.Session held = d.seen().sessions().get(0);
        Observed.Session refused = d.seen().sessions().get(1);
        assertThat(ObservedJudge.Model.of(d, held, 4L << 30)).isEqualTo(new ObservedJudge.Model.NotKept("its model (126.8 MiB) was not kept: the page "
                + "let it go (it left the document, or the realm ended) before the reader had it, within the budget"));
        // the page held no copy of this one for the reader: its budget, said as such
        assertThat(ObservedJudge.Model.of(d, refused, 4L << 30)).isEqualTo(new ObservedJudge.Model.NotKept("its model (126.8 MiB) was not kept: the visit "
                + "keeps at most 4.0 GiB of models on disk (--keep)"));
    }
}
