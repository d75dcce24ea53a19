package dev.accelbridge.browser.observe;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.Response;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Untrusted;
import dev.accelbridge.core.fetch.TreeManifest;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where an app's model bytes came from, as the network layer saw them: every response the page and its dedicated workers
 * got whose length is known is noted (its URL, its length); a model (or an external-data file) is named by the URL of a
 * response of its exact length whose body hashes to its sha256, read back from the browser only for such a candidate. A
 * URL is never taken from the page's word, nor from a length alone: a body the browser no longer holds (a very large one,
 * a document gone), a compressed transfer, or bytes the app made itself leave the model unnamed, said as such.
 */
@PublicApi
public final class ModelSources {
    /** The most responses noted in a visit: past it the first ones are kept. */
    static final int MAX_NOTED = 512;
    /**
     * The largest body read back to be hashed (256 MiB): the browser hands a body over whole, so past it a candidate is
     * not verified rather than read into this process's heap.
     */
    static final long MAX_VERIFIED = 256L << 20;

    /** A response noted: its URL and its body's length, as its headers said (checked by hashing before it names anything). */
    private record Noted(String url, long length, Response response) {
    }

    /**
     * Where one model's bytes came from.
     *
     * @param url      the response's URL, bounded; empty when no response was verified to be these bytes
     * @param evidence how it was found, or why it was not, in words
     */
    public record Source(Optional<String> url, String evidence) {
    }

    private final List<Noted> noted = new ArrayList<>();

    private ModelSources() {
    }

    /** Notes the responses {@code page} (and its dedicated workers) gets from now on. */
    public static ModelSources watch(Page page) {
        ModelSources s = new ModelSources();
        page.onResponse(s::note);
        return s;
    }

    private synchronized void note(Response r) {
        if (noted.size() >= MAX_NOTED || r.status() < 200 || r.status() > 299) {
            return;
        }
        String length = r.headers().get("content-length");
        String encoding = r.headers().get("content-encoding");
        if (length == null || encoding != null && !encoding.isBlank() && !encoding.equalsIgnoreCase("identity")) {
            return; // a compressed body's length is not its bytes'
        }
        try {
            long n = Long.parseLong(length.trim());
            if (n > 0) {
                noted.add(new Noted(Untrusted.bounded(r.url(), 400), n, r));
            }
        } catch (NumberFormatException e) {
            // a length that is not a number says nothing
        }
    }

    /** Where the bytes of {@code length} bytes hashing to {@code sha256} (lower-case hex) came from. */
    public synchronized Source of(String sha256, long length) {
        if (sha256 == null) {
            return new Source(Optional.empty(), "its bytes were not hashed");
        }
        List<Noted> same = noted.stream().filter(n -> n.length() == length).toList();
        if (same.isEmpty()) {
            return new Source(Optional.empty(), "no response of its length (" + length + " bytes) was seen: the app made, cached or put together the bytes "
                    + "itself (a model fetched in parts), or they came compressed");
        }
        if (length > MAX_VERIFIED) {
            return new Source(Optional.empty(), same.size() + " response(s) of its length, not read back to verify (over 256 MiB)");
        }
        List<String> why = new ArrayList<>();
        for (Noted n : same) {
            try {
                if (sha256.equals(TreeManifest.sha256(new ByteArrayInputStream(n.response().body())))) {
                    return new Source(Optional.of(n.url()), "its response's body hashes to its sha256");
                }
                why.add(n.url() + " is other bytes");
            } catch (PlaywrightException | IOException e) {
                why.add(n.url() + "'s body is no longer held by the browser");
            }
        }
        return new Source(Optional.empty(), Untrusted.bounded("no response verified to be its bytes: " + String.join("; ", why), 600));
    }
}
