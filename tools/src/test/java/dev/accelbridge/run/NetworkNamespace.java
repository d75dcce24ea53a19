package dev.accelbridge.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Another host for tests: a Linux network namespace joined to this one by a veth pair of its own ({@code 10.213.N.1/30} on
 * this side, {@code 10.213.N.2/30} inside, IPv4 alone), with only loopback and that pair. What runs inside reaches this
 * machine only at {@link #hostAddress()}, and this machine reaches it only at {@link #address()}; no route leads anywhere
 * else. Closing it ends every process started inside and deletes the namespace and the pair.
 */
public final class NetworkNamespace implements AutoCloseable {
    private final String name;
    private final String hostSide;
    private final int subnet;
    private static final java.util.concurrent.atomic.AtomicInteger NEXT = new java.util.concurrent.atomic.AtomicInteger();
    private final List<Process> processes = new ArrayList<>();

    private NetworkNamespace(String name, String hostSide, int subnet) {
        this.name = name;
        this.hostSide = hostSide;
        this.subnet = subnet;
    }

    /** Why no namespace can be made here (not root, no {@code ip}, refused), or null when one can. */
    public static String unavailable() {
        try {
            if (!new String(new ProcessBuilder("id", "-u").start().getInputStream().readAllBytes(), StandardCharsets.US_ASCII)
                    .strip().equals("0")) {
                return "not root: 'ip netns add' needs root to make another host";
            }
            String probe = "ab-probe-" + ProcessHandle.current().pid();
            String out = run("ip", "netns", "add", probe);
            if (out != null) {
                return "'ip netns add' was refused: " + out;
            }
            run("ip", "netns", "del", probe);
            return null;
        } catch (IOException e) {
            return "no 'ip' command (Debian's iproute2): " + e.getMessage();
        }
    }

    /**
     * A fresh namespace and pair on a subnet no interface of this machine has: one test's pair is never confused with an
     * earlier one's (two tests of one JVM took the same subnet before, when it came from the process id alone).
     */
    public static NetworkNamespace create() throws IOException {
        int n = freeSubnet();
        String tag = Long.toString(ProcessHandle.current().pid() % 100000, 36) + Long.toString(System.nanoTime() % 1000, 36);
        NetworkNamespace ns = new NetworkNamespace("ab-" + tag, "abh" + tag, n);
        String inside = "abn" + tag;
        try {
            ns.must("ip", "netns", "add", ns.name);
            ns.must("ip", "link", "add", ns.hostSide, "type", "veth", "peer", "name", inside);
            ns.must("ip", "link", "set", inside, "netns", ns.name);
            // IPv4 alone: the kernel's IPv6 link-local address would arrive a second or more after the link is up, a
            // change of network to a browser started by then, which fails its page's requests (net::ERR_NETWORK_CHANGED)
            ns.must("ip", "link", "set", ns.hostSide, "addrgenmode", "none");
            ns.must("ip", "netns", "exec", ns.name, "ip", "link", "set", inside, "addrgenmode", "none");
            ns.must("ip", "addr", "add", ns.hostAddress() + "/30", "dev", ns.hostSide);
            ns.must("ip", "link", "set", ns.hostSide, "up");
            ns.must("ip", "netns", "exec", ns.name, "ip", "addr", "add", ns.address() + "/30", "dev", inside);
            ns.must("ip", "netns", "exec", ns.name, "ip", "link", "set", inside, "up");
            ns.must("ip", "netns", "exec", ns.name, "ip", "link", "set", "lo", "up");
        } catch (IOException | RuntimeException e) {
            ns.close();
            throw e;
        }
        return ns;
    }

    /** The third octet of a 10.213.N.0/30 that no address of this machine is in, starting after the last one taken. */
    private static synchronized int freeSubnet() throws IOException {
        Process p = new ProcessBuilder("ip", "-o", "-4", "addr", "show").redirectErrorStream(true).start();
        String taken = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        for (int i = 0; i < 230; i++) {
            int n = 20 + (int) ((ProcessHandle.current().pid() + NEXT.getAndIncrement()) % 230);
            if (!taken.contains(" 10.213." + n + ".")) {
                return n;
            }
        }
        throw new IOException("every 10.213.N.0/30 for a test namespace is taken: 'ip -o -4 addr show' lists them");
    }

    /** This machine's address on the pair: what the bridge binds and advertises. */
    public String hostAddress() {
        return "10.213." + subnet + ".1";
    }

    /** The namespace's address: where a server started inside listens. */
    public String address() {
        return "10.213." + subnet + ".2";
    }

    /** Starts {@code command} inside the namespace; it is ended with the namespace. */
    public Process start(List<String> command, ProcessBuilder.Redirect output) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", name));
        cmd.addAll(command);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(output).start();
        processes.add(p);
        return p;
    }

    private void must(String... cmd) throws IOException {
        String out = run(cmd);
        if (out != null) {
            throw new IOException(String.join(" ", cmd) + ": " + out);
        }
    }

    /** Runs a command; null when it succeeded, else what it said. */
    private static String run(String... cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "timed out";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
        return p.exitValue() == 0 ? null : out.isEmpty() ? "exit " + p.exitValue() : out;
    }

    @Override
    public void close() {
        // the tree as it is now: a grandchild that outlives its parent (Playwright's node server after its java CLI ends)
        // is no longer anyone's descendant once the parent is gone
        List<ProcessHandle> tree = new ArrayList<>();
        for (Process p : processes) {
            p.descendants().forEach(tree::add);
            tree.add(p.toHandle());
        }
        tree.forEach(ProcessHandle::destroy);
        for (ProcessHandle h : tree) {
            try {
                h.onExit().get(10, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                h.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            run("ip", "netns", "del", name); // takes its end of the pair, and so the pair, with it
            run("ip", "link", "del", hostSide);
        } catch (IOException ignored) {
            // nothing was made
        }
    }
}
