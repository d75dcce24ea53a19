package dev.accelbridge.browser.launch;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Untrusted;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What the host's Vulkan gives a process with a given environment, as the Vulkan probe built beside the headless-surface
 * layer ({@code src/main/c/vulkan-probe.c}) said it: whether the loader is there, the instance extensions the loader and
 * its drivers offer, and the physical devices. The probe's words are another program's: each line is bounded and read
 * as data, and what could not be read is said, never taken as "none".
 *
 * @param loader     the loader was found and answered
 * @param extensions the instance extensions offered (without any layer of Accelbridge's)
 * @param devices    each physical device: its name, vendor id and type ("llvmpipe (LLVM 15.0.6, 256 bits), cpu, vendor 10005")
 * @param problem    why the loader, an instance or the probe itself did not answer; empty when all answered
 */
@PublicApi
public record VulkanHost(boolean loader, Set<String> extensions, List<String> devices, Optional<String> problem) {
    /** The instance extension ANGLE's headless display asks for. */
    public static final String HEADLESS_SURFACE = "VK_EXT_headless_surface";
    private static final int MAX_OUTPUT = 64 * 1024;
    private static final long TIMEOUT_S = 20;
    private static final String[] TYPES = {"other", "integrated GPU", "discrete GPU", "virtual GPU", "cpu"};

    public VulkanHost {
        extensions = java.util.Collections.unmodifiableSet(new LinkedHashSet<>(extensions));
        devices = List.copyOf(devices);
    }

    /** Whether the drivers offer {@link #HEADLESS_SURFACE} themselves. */
    public boolean offersHeadlessSurface() {
        return extensions.contains(HEADLESS_SURFACE);
    }

    /** Reads the probe's output. */
    static VulkanHost parse(String output) {
        boolean loader = false;
        Set<String> extensions = new LinkedHashSet<>();
        List<String> devices = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (String raw : output.split("\n", 1000)) {
            String line = raw.strip();
            if (line.equals("loader ok")) {
                loader = true;
            } else if (line.startsWith("loader missing")) {
                problems.add("no Vulkan loader (" + Untrusted.bounded(line.substring("loader missing".length()).replaceFirst("^: ", ""), 200) + ")");
            } else if (line.startsWith("extension ")) {
                String name = line.substring("extension ".length());
                if (name.matches("VK_[A-Za-z0-9_]{1,120}")) {
                    extensions.add(name);
                }
            } else if (line.startsWith("device ")) {
                String[] f = line.substring("device ".length()).split("\t", 3);
                if (f.length == 3 && f[0].matches("[0-9a-f]{1,8}") && f[1].matches("[0-4]")) {
                    devices.add(Untrusted.bounded(Untrusted.oneLine(f[2]), 120) + ", " + TYPES[Integer.parseInt(f[1])] + ", vendor " + f[0]);
                }
            } else if (line.startsWith("error ")) {
                problems.add(Untrusted.bounded(line.substring("error ".length()), 200));
            }
        }
        if (loader && devices.isEmpty() && problems.isEmpty()) {
            problems.add("the Vulkan loader lists no device");
        }
        return new VulkanHost(loader, extensions, devices,
                problems.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", problems)));
    }

    /** What the probe at {@code probe} says in a process with this process's environment and {@code environment} on top. */
    static VulkanHost probe(Path probe, Map<String, String> environment) {
        Path out = null;
        Process p = null;
        try {
            // into a file, so that a probe hung in a driver is ended at the timeout instead of blocking a read
            out = java.nio.file.Files.createTempFile("accelbridge-vulkan-probe", ".txt");
            ProcessBuilder pb = new ProcessBuilder(probe.toString()).redirectErrorStream(true).redirectOutput(out.toFile());
            pb.environment().putAll(environment);
            p = pb.start();
            p.getOutputStream().close();
            if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                return unanswered("the Vulkan probe did not end within " + TIMEOUT_S + " s");
            }
            String said;
            try (InputStream in = java.nio.file.Files.newInputStream(out)) {
                said = new String(in.readNBytes(MAX_OUTPUT), StandardCharsets.UTF_8);
            }
            if (p.exitValue() != 0) {
                return unanswered("the Vulkan probe ended with " + p.exitValue() + " (a driver ended it): "
                        + Untrusted.bounded(Untrusted.oneLine(said), 300));
            }
            return parse(said);
        } catch (IOException e) {
            return unanswered("the Vulkan probe did not run (" + Untrusted.reason(e.getMessage()) + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return unanswered("interrupted while the Vulkan probe ran");
        } finally {
            if (p != null && p.isAlive()) {
                p.destroyForcibly();
            }
            if (out != null) {
                try {
                    java.nio.file.Files.deleteIfExists(out);
                } catch (IOException ignored) {
                    // a temporary file left behind is not worth failing the decision for
                }
            }
        }
    }

    private static VulkanHost unanswered(String why) {
        return new VulkanHost(false, Set.of(), List.of(), Optional.of(why));
    }
}
