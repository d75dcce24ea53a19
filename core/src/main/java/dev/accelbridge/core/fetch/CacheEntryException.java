package dev.accelbridge.core.fetch;

import dev.accelbridge.core.AccelbridgeException;

/** A cache entry could not be had intact: fetched again, it still failed its check (the message names the file and both hashes). */
public class CacheEntryException extends AccelbridgeException {
    public CacheEntryException(String problem, String fix) {
        super(problem, fix);
    }
}
