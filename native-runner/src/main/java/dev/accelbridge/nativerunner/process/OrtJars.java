package dev.accelbridge.nativerunner.process;

import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.Caches;
import dev.accelbridge.core.Untrusted;
import dev.accelbridge.core.fetch.CacheEntry;
import dev.accelbridge.core.fetch.CacheEntryException;
import dev.accelbridge.core.fetch.Ownership;
import dev.accelbridge.core.fetch.TreeManifest;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ONNX Runtime's Java artifact ({@code com.microsoft.onnxruntime:onnxruntime}) at a given version: from the local Maven
 * repository when the build put it there (its SHA-1 against the {@code .sha1} Maven kept beside it), else from Accelbridge's
 * cache, else downloaded from the repository into the cache at first use ({@link CacheEntry} {@code maven/onnxruntime@V}),
 * its SHA-1 checked against the one the repository publishes beside it. Every use verifies the jar again before a runner
 * loads it: the SHA-1 recorded at download and the sha256 of the manifest, this user's file; a damaged cached jar is
 * fetched again. The repository is {@code -Daccelbridge.maven.repo} (default Maven Central).
 */
final class OrtJars {
    static final String GROUP = "com.microsoft.onnxruntime";
    static final String ARTIFACT = "onnxruntime";
    private static final String CENTRAL = "https://repo.maven.apache.org/maven2/";
    /** A SHA-1 file holds 40 hex digits, maybe a file name after them: anything longer is not one. */
    private static final int MAX_SHA1_BODY = 1024;
    /** The largest jar taken: ONNX Runtime's CPU jar with every platform's library is about 100 MB. */
    private static final long MAX_JAR = 1L << 30;
    private static final Pattern SHA1 = Pattern.compile("[0-9a-fA-F]{40}");

    /**
     * A jar verified now.
     *
     * @param file     the jar
     * @param sha1     its SHA-1, the one published
     * @param sha256   its sha256
     * @param source   {@code local repository} or {@code cache}
     * @param repaired why a cached copy was fetched again, or null
     */
    record Jar(Path file, String sha1, String sha256, String source, String repaired) {
        /** What provenance says was verified. */
        String verified() {
            return "sha256 " + sha256 + " (" + (sha1.isEmpty() ? "" : "SHA-1 " + sha1 + " as published; ") + source + ")"
                    + (repaired == null ? "" : CacheEntry.Verified.REFETCHED + repaired);
        }
    }

    private final Path cacheRoot;
    private final Path localRepo;
    private final String repo;

    /**
     * @param cacheRoot Accelbridge's cache
     * @param localRepo the local Maven repository
     * @param repo      the remote repository's base URL
     */
    OrtJars(Path cacheRoot, Path localRepo, String repo) {
        this.cacheRoot = cacheRoot;
        this.localRepo = localRepo;
        this.repo = repo.endsWith("/") ? repo : repo + "/";
    }

    /** The jars as configured: Accelbridge's cache, {@code maven.repo.local} or {@code ~/.m2/repository}, {@code accelbridge.maven.repo}. */
    static OrtJars defaults() {
        return new OrtJars(Caches.root(), Path.of(System.getProperty("maven.repo.local", Path.of(System.getProperty("user.home"), ".m2",
                "repository").toString())), System.getProperty("accelbridge.maven.repo", CENTRAL));
    }

    private static HttpClient http() {
        return HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).connectTimeout(Duration.ofSeconds(20)).build();
    }

    private String url(String version, String suffix) {
        return repo + GROUP.replace('.', '/') + "/" + ARTIFACT + "/" + version + "/" + ARTIFACT + "-" + version + ".jar" + suffix;
    }

    /**
     * The versions the repository lists in its {@code maven-metadata.xml}, as it lists them.
     *
     * @throws BackendUnavailableException when the repository cannot be asked
     */
    List<String> published() {
        String url = repo + GROUP.replace('.', '/') + "/" + ARTIFACT + "/maven-metadata.xml";
        try {
            HttpResponse<InputStream> r = http().send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            String body;
            try (InputStream in = r.body()) {
                body = new String(in.readNBytes(4 << 20), StandardCharsets.UTF_8);
            }
            if (r.statusCode() != 200) {
                throw new BackendUnavailableException("The repository answered HTTP " + r.statusCode() + " for " + url, "check -Daccelbridge.maven.repo");
            }
            List<String> out = new ArrayList<>();
            Matcher m = Pattern.compile("<version>([0-9A-Za-z.+_-]{1,80})</version>").matcher(body);
            while (m.find()) {
                out.add(m.group(1).trim());
            }
            return out;
        } catch (IOException e) {
            throw new BackendUnavailableException("Could not read " + url + ": " + Untrusted.reason(e.toString()), "check that Maven Central is reachable");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendUnavailableException("Interrupted while reading " + url, null);
        }
    }

    /**
     * Which of {@code versions} can be had here, asked once for all (the local repository, the cache, else one HEAD
     * request each, a few at a time): version → null when it can, else why not. Maven Central's copies can list a version
     * whose jar does not resolve.
     */
    Map<String, String> obtainable(List<String> versions) {
        Map<String, String> out = new LinkedHashMap<>();
        List<String> installed = installed();
        HttpClient http = http();
        List<java.util.concurrent.CompletableFuture<Void>> asks = new ArrayList<>();
        java.util.concurrent.Semaphore few = new java.util.concurrent.Semaphore(4);
        for (String v : versions) {
            out.put(v, null);
            if (installed.contains(v)) {
                continue;
            }
            asks.add(java.util.concurrent.CompletableFuture.runAsync(() -> {
                try {
                    few.acquire();
                    try {
                        HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(url(v, ""))).method("HEAD",
                                HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.discarding());
                        if (r.statusCode() != 200) {
                            synchronized (out) {
                                out.put(v, "its jar is not at " + url(v, "") + " (HTTP " + r.statusCode() + ")");
                            }
                        }
                    } finally {
                        few.release();
                    }
                } catch (IOException e) {
                    synchronized (out) {
                        out.put(v, "its jar could not be asked for: " + Untrusted.bounded(e.toString(), 200));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        asks.forEach(java.util.concurrent.CompletableFuture::join);
        return out;
    }

    /** The versions whose jar the local Maven repository or the cache holds. */
    List<String> installed() {
        List<String> out = new ArrayList<>();
        try (var dirs = Files.list(localRepo.resolve(GROUP.replace('.', '/')).resolve(ARTIFACT))) {
            dirs.filter(d -> Files.isRegularFile(d.resolve(ARTIFACT + "-" + d.getFileName() + ".jar")))
                    .forEach(d -> out.add(d.getFileName().toString()));
        } catch (IOException e) {
            // no local repository
        }
        try (var entries = Files.list(cacheRoot.resolve("maven"))) {
            entries.map(j -> j.getFileName().toString()).filter(n -> n.startsWith(ARTIFACT + "@"))
                    .map(n -> n.substring(ARTIFACT.length() + 1)).filter(v -> !out.contains(v))
                    .filter(v -> entry(v).existing(check(v)).isPresent()).forEach(out::add);
        } catch (IOException | IllegalArgumentException e) {
            // no cache yet
        }
        return out;
    }

    private CacheEntry entry(String version) {
        return new CacheEntry(cacheRoot, "maven", ARTIFACT + "@" + version);
    }

    private static String fileName(String version) {
        return ARTIFACT + "-" + version + ".jar";
    }

    /**
     * The jar of ONNX Runtime {@code version}, verified now.
     *
     * @throws BackendUnavailableException when it is not published, cannot be fetched, or is not the file published
     */
    Jar jar(String version) {
        String file = fileName(version);
        CacheEntry entry;
        try {
            entry = entry(version);
        } catch (IllegalArgumentException e) {
            throw new BackendUnavailableException("Not an ONNX Runtime version: " + Untrusted.quote(version), "give a version such as 1.22.0");
        }
        Optional<Jar> m2 = fromLocalRepository(version);
        if (m2.isPresent()) {
            return m2.get();
        }
        Optional<Jar> own = fromThisProcess(version);
        if (own.isPresent()) {
            return own.get(); // an offline bundle has no local repository: the jar this process runs on is the one
        }
        try {
            CacheEntry.Verified v = entry.obtain("ONNX Runtime " + version + "'s jar", into -> download(version, into.resolve(file)), check(version));
            return new Jar(v.dir().resolve(file), v.fact("sha1"), v.tree().files().get(file).sha256(), "cache " + v.dir(), v.repaired());
        } catch (CacheEntryException e) {
            throw new BackendUnavailableException(e.getMessage(), e.fix());
        }
    }

    /** The jar this process loaded ONNX Runtime from, when it is {@code version}'s (its file name says so). */
    private static Optional<Jar> fromThisProcess(String version) {
        Path own = RunnerClasspath.loadedOrtJar();
        if (own == null || !own.getFileName().toString().equals(fileName(version)) || !Files.isRegularFile(own)) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Jar(own, "", TreeManifest.sha256(own), "this process's class path", null));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The local repository's jar when Maven's own {@code .sha1} beside it says it is intact and it is this user's or root's. */
    private Optional<Jar> fromLocalRepository(String version) {
        Path m2 = localRepo.resolve(GROUP.replace('.', '/')).resolve(ARTIFACT).resolve(version).resolve(fileName(version));
        Path sha = m2.resolveSibling(m2.getFileName() + ".sha1");
        try {
            if (!Files.isRegularFile(m2) || !Files.isRegularFile(sha) || Ownership.problem(m2, false).isPresent()
                    || Files.size(sha) > MAX_SHA1_BODY) {
                return Optional.empty();
            }
            String want = firstToken(Files.readString(sha, StandardCharsets.US_ASCII));
            String got = HexFormat.of().formatHex(TreeManifest.digest(m2, "SHA-1"));
            return got.equalsIgnoreCase(want) ? Optional.of(new Jar(m2, got, TreeManifest.sha256(m2), "local repository", null))
                    : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** A cached jar's own check beyond its manifest: its SHA-1 is the one the repository published when it was fetched. */
    private static CacheEntry.Check check(String version) {
        return (dir, facts) -> {
            Path jar = dir.resolve(fileName(version));
            String want = facts.get("sha1");
            if (want == null || !SHA1.matcher(want).matches() || !Files.isRegularFile(jar)) {
                return Optional.of("it holds no jar with a published SHA-1");
            }
            String got = HexFormat.of().formatHex(TreeManifest.digest(jar, "SHA-1"));
            return got.equalsIgnoreCase(want) ? Optional.empty()
                    : Optional.of(jar.getFileName() + " has SHA-1 " + got + "; published (recorded at download): " + want);
        };
    }

    /** Downloads the jar into {@code target} and checks it against the repository's SHA-1; returns the facts to record. */
    private Map<String, String> download(String version, Path target) throws IOException {
        String url = url(version, "");
        HttpClient http = http();
        try {
            String expected = publishedSha1(http, version);
            HttpResponse<InputStream> jar = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMinutes(10)).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            java.security.MessageDigest sha1 = java.security.MessageDigest.getInstance("SHA-1");
            long n = 0;
            try (InputStream in = jar.body(); var out = Files.newOutputStream(target)) {
                byte[] buf = new byte[1 << 16];
                for (int k; (k = in.read(buf)) > 0; ) {
                    n += k;
                    if (n > MAX_JAR) {
                        throw new BackendUnavailableException("The jar at " + url + " is larger than " + (MAX_JAR >> 20) + " MiB: not ONNX Runtime's",
                                "check -Daccelbridge.maven.repo");
                    }
                    sha1.update(buf, 0, k);
                    out.write(buf, 0, k);
                }
            }
            String got = HexFormat.of().formatHex(sha1.digest());
            if (jar.statusCode() != 200 || !got.equalsIgnoreCase(expected)) {
                throw new BackendUnavailableException("The jar of ONNX Runtime " + version + " from " + url + " is not the one published"
                        + " (HTTP " + jar.statusCode() + ", SHA-1 " + got + ", published " + expected + ")", "retry; check the repository");
            }
            Map<String, String> facts = new LinkedHashMap<>();
            facts.put("sha1", expected.toLowerCase(java.util.Locale.ROOT));
            facts.put("url", url);
            return facts;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendUnavailableException("Interrupted while fetching ONNX Runtime " + version, null);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new BackendUnavailableException("ONNX Runtime " + version + " could not be fetched from " + url + ": "
                    + Untrusted.reason(e.toString()), "check that Maven Central is reachable");
        }
    }

    /**
     * The SHA-1 the repository publishes beside the jar, read bounded: found when tried, a 1,000,000-character {@code .sha1}
     * body became a 1,000,251-character reason that no merge would take.
     */
    private String publishedSha1(HttpClient http, String version) throws IOException, InterruptedException {
        String url = url(version, ".sha1");
        HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        byte[] body;
        boolean more;
        try (InputStream in = r.body()) {
            body = in.readNBytes(MAX_SHA1_BODY);
            more = in.read() >= 0;
        }
        if (r.statusCode() != 200) {
            throw new BackendUnavailableException("ONNX Runtime " + version + " is not published at " + url(version, "") + " (HTTP "
                    + r.statusCode() + ")", "ask for a version Maven Central has (" + CENTRAL + GROUP.replace('.', '/') + "/" + ARTIFACT + "/)");
        }
        String text = new String(body, StandardCharsets.US_ASCII);
        String sha = firstToken(text);
        if (more || !SHA1.matcher(sha).matches()) {
            throw new BackendUnavailableException("The repository's " + url + " is not a SHA-1: it begins " + Untrusted.quote(text)
                    + (more ? " and runs past " + MAX_SHA1_BODY + " bytes" : ""), "check -Daccelbridge.maven.repo");
        }
        return sha;
    }

    private static String firstToken(String s) {
        return s.strip().split("\\s+", 2)[0];
    }
}
