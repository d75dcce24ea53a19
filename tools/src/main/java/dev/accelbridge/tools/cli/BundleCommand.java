package dev.accelbridge.tools.cli;

import dev.accelbridge.tools.bundle.OfflineBundle;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code accelbridge bundle --out DIR}: the offline bundle, for a host with no network, JDK, browser or Node.js. */
@Command(name = "bundle", mixinStandardHelpOptions = true,
        description = "Writes an offline bundle: a Java runtime, the application, the pinned headless shell and onnxruntime-web, "
                + "extra onnxruntime-web versions and models asked for; one archive in parts, each checked on the target by the "
                + "bundle's install.sh before it is unpacked.")
public final class BundleCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "The bundle's folder (new or empty).")
    Path out;

    @Option(names = "--part-size", paramLabel = "SIZE", defaultValue = "1G",
            description = "The most bytes one part holds: bytes, or with K, M or G (default: ${DEFAULT-VALUE}).")
    String partSize;

    @Option(names = "--ort-web-version", paramLabel = "V", split = ",",
            description = "onnxruntime-web versions to carry beside the pinned one (fetched now, verified on the target at every use).")
    List<String> ortWebVersions = new ArrayList<>();

    @Option(names = "--model", paramLabel = "PATH", description = "A model file or folder to carry (into the bundle's models/).")
    List<Path> models = new ArrayList<>();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        long size = OfflineBundle.partSize(partSize);
        CommonOptions.checkOut(out);
        PrintWriter err = spec.commandLine().getErr();
        OfflineBundle.Result r = OfflineBundle.write(new OfflineBundle.Options(out, size, ortWebVersions, models),
                step -> err.println("[bundle] " + step));
        PrintWriter o = spec.commandLine().getOut();
        o.printf(Locale.ROOT, "bundle: %s (%d part%s, %.1f MiB)%n", r.folder().toAbsolutePath(), r.parts(), r.parts() == 1 ? "" : "s",
                r.bytes() / 1048576.0);
        r.holds().forEach((k, v) -> o.println("  " + k + ": " + v));
        o.println("MANIFEST.sha256: " + r.manifestSha256());
        o.println("on the target: ./install.sh --expect " + r.manifestSha256());
        return Main.OK;
    }
}
