package dev.accelbridge.bridge;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Users' keystores as keytool makes them (found when tried: an empty file gave "Cannot read the TLS keystore ...: null";
 * an expired certificate, one for another host name, or a keystore holding two keys was served without a warning).
 */
class TlsIdentityTest {
    static final char[] PW = "changeit-123456".toCharArray();
    @TempDir
    Path tmp;

    private Path keytool(Path ks, String alias, String san, String start, int days) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair",
                "-alias", alias, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + alias, "-ext", "SAN=" + san,
                "-validity", String.valueOf(days), "-storetype", "PKCS12", "-keystore", ks.toString(), "-storepass", new String(PW)));
        if (start != null) {
            cmd.addAll(List.of("-startdate", start));
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as(out).isZero();
        return ks;
    }

    @Test
    void anEmptyFileSaysWhatBothReadersFoundNeverNull() throws Exception {
        Path empty = Files.createFile(tmp.resolve("empty.p12"));
        assertThatThrownBy(() -> TlsIdentity.load(empty, PW)).hasMessageContaining("as PKCS#12").hasMessageContaining("as JKS")
                .hasMessageContaining("ended early").hasMessageNotContaining("null");
    }

    @Test
    void twoKeysAreServedOnlyWhenOneIsNamedAndThenAloneSoTheServedKeyIsThePrintedOne() throws Exception {
        Path two = keytool(keytool(tmp.resolve("two.p12"), "one", "dns:localhost", null, 30), "two", "dns:localhost", null, 30);
        assertThatThrownBy(() -> TlsIdentity.load(two, PW)).hasMessageContaining("holds 2 keys (one, two)")
                .hasMessageContaining("none is called accelbridge");
        Path named = keytool(keytool(tmp.resolve("named.p12"), "other", "dns:localhost", null, 30), "accelbridge", "dns:bridge.lab", null, 30);
        TlsIdentity t = TlsIdentity.load(named, PW);
        assertThat(Collections.list(t.keyStore().aliases())).containsExactly("accelbridge");
        assertThat(t.certificate().getSubjectX500Principal().getName()).isEqualTo("CN=accelbridge");
        assertThat(t.warnings(List.of(), Instant.now())).singleElement().asString().contains("holds 2 keys", "the one called accelbridge");
    }

    @Test
    void anExpiredCertificateOrOneForAnotherNameIsWarnedOf() throws Exception {
        TlsIdentity expired = TlsIdentity.load(keytool(tmp.resolve("old.p12"), "accelbridge", "dns:bridge.lab", "-10d", 2), PW);
        assertThat(expired.warnings(List.of("bridge.lab"), Instant.now())).singleElement().asString().contains("expired");
        TlsIdentity other = TlsIdentity.load(keytool(tmp.resolve("other.p12"), "accelbridge", "dns:*.lab.example,ip:10.0.0.5", null, 30), PW);
        assertThat(other.warnings(List.of("node.lab.example"), Instant.now())).isEmpty();
        assertThat(other.warnings(List.of("10.0.0.5"), Instant.now())).isEmpty();
        assertThat(other.warnings(List.of("bridge.lab"), Instant.now())).singleElement().asString()
                .contains("for *.lab.example, 10.0.0.5, not bridge.lab");
        assertThat(other.warnings(List.of("deep.node.lab.example"), Instant.now())).as("a wildcard covers one label").hasSize(1);
        assertThat(other.warnings(List.of(), Instant.now())).isEmpty();
    }
}
