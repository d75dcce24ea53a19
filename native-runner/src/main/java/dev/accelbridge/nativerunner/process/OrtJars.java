package dev.accelbridge.nativerunner.process;

import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.Caches;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;

/**
 * ONNX Runtime's Java artifact ({@code com.microsoft.onnxruntime:onnxruntime}) at a given version: from the local Maven
 * repository when the build put it there, else from Accelbridge's cache, else downloaded from Maven Central into the cache
 * at first use, its SHA-1 checked against the one the repository publishes beside it. The repository is
 * {@code -Daccelbridge.maven.repo} (default Maven Central).
 */
final class OrtJars {
    static final String GROUP = "com.microsoft.onnxruntime";
    static final String ARTIFACT = "onnxruntime";
    private static final String CENTRAL = "https://repo.maven.apache.org/maven2/";

    private OrtJars() {
    }

    /**
     * The versions the repository lists in its {@code maven-metadata.xml}, as it lists them.
     *
     * @throws BackendUnavailableException when the repository cannot be asked
     */
    static java.util.List<String> published() {
        String url = repo() + GROUP.replace('.', '/') + "/" + ARTIFACT + "/maven-metadata.xml";
        try {
            HttpResponse<String> r = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).connectTimeout(Duration.ofSeconds(20))
                    .build().send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new BackendUnavailableException("The repository answered HTTP " + r.statusCode() + " for " + url, "check -Daccelbridge.maven.repo");
            }
            java.util.List<String> out = new java.util.ArrayList<>();
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("<version>([^<]+)</version>").matcher(r.body());
            while (m.find()) {
                out.add(m.group(1).trim());
            }
            return out;
        } catch (IOException e) {
            throw new BackendUnavailableException("Could not read " + url + ": " + e, "check that Maven Central is reachable");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendUnavailableException("Interrupted while reading " + url, null);
        }
    }

    /** The versions whose jar the local Maven repository or the cache holds. */
    static java.util.List<String> installed() {
        java.util.List<String> out = new java.util.ArrayList<>();
        try (var dirs = Files.list(localRepo().resolve(GROUP.replace('.', '/')).resolve(ARTIFACT))) {
            dirs.filter(d -> Files.isRegularFile(d.resolve(ARTIFACT + "-" + d.getFileName() + ".jar")))
                    .forEach(d -> out.add(d.getFileName().toString()));
        } catch (IOException e) {
            // no local repository
        }
        try (var jars = Files.list(Caches.root().resolve("maven"))) {
            jars.map(j -> j.getFileName().toString()).filter(n -> n.startsWith(ARTIFACT + "-") && n.endsWith(".jar"))
                    .map(n -> n.substring(ARTIFACT.length() + 1, n.length() - 4)).filter(v -> !out.contains(v)).forEach(out::add);
        } catch (IOException e) {
            // no cache yet
        }
        return out;
    }

    private static Path localRepo() {
        return Path.of(System.getProperty("maven.repo.local", Path.of(System.getProperty("user.home"), ".m2", "repository").toString()));
    }

    private static String repo() {
        String base = System.getProperty("accelbridge.maven.repo", CENTRAL);
        return base.endsWith("/") ? base : base + "/";
    }

    /**
     * The jar of ONNX Runtime {@code version}.
     *
     * @throws BackendUnavailableException when it is not published, cannot be fetched, or is not the file published
     */
    static synchronized Path jar(String version) {
        String file = ARTIFACT + "-" + version + ".jar";
        Path m2 = localRepo().resolve(GROUP.replace('.', '/')).resolve(ARTIFACT).resolve(version).resolve(file);
        if (Files.isRegularFile(m2)) {
            return m2;
        }
        Path cached = Caches.root().resolve("maven").resolve(file);
        if (Files.isRegularFile(cached)) {
            return cached;
        }
        String url = repo() + GROUP.replace('.', '/') + "/" + ARTIFACT + "/" + version + "/" + file;
        HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).connectTimeout(Duration.ofSeconds(20)).build();
        Path tmp = null;
        try {
            Files.createDirectories(cached.getParent());
            HttpResponse<String> sha = http.send(HttpRequest.newBuilder(URI.create(url + ".sha1")).timeout(Duration.ofSeconds(60)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (sha.statusCode() != 200) {
                throw new BackendUnavailableException("ONNX Runtime " + version + " is not published at " + url + " (HTTP "
                        + sha.statusCode() + ")", "ask for a version Maven Central has (" + CENTRAL + GROUP.replace('.', '/') + "/"
                        + ARTIFACT + "/)");
            }
            String expected = sha.body().trim().split("\\s+")[0];
            tmp = Files.createTempFile(cached.getParent(), file, ".partial");
            HttpResponse<InputStream> jar = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMinutes(10)).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            try (InputStream in = jar.body(); var out = Files.newOutputStream(tmp)) {
                byte[] buf = new byte[1 << 16];
                for (int n; (n = in.read(buf)) > 0; ) {
                    sha1.update(buf, 0, n);
                    out.write(buf, 0, n);
                }
            }
            String got = HexFormat.of().formatHex(sha1.digest());
            if (jar.statusCode() != 200 || !got.equalsIgnoreCase(expected)) {
                throw new BackendUnavailableException("The jar of ONNX Runtime " + version + " from " + url + " is not the one published"
                        + " (HTTP " + jar.statusCode() + ", SHA-1 " + got + ", published " + expected + ")", "retry; check the repository");
            }
            Files.move(tmp, cached, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return cached;
        } catch (IOException e) {
            throw new BackendUnavailableException("ONNX Runtime " + version + " could not be fetched from " + url + ": " + e,
                    "check that Maven Central is reachable, or put the jar in " + cached);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendUnavailableException("Interrupted while fetching ONNX Runtime " + version, null);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // a leftover partial file is never used
                }
            }
        }
    }
}
