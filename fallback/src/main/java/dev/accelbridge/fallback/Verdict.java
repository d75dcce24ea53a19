package dev.accelbridge.fallback;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Status;

/**
 * The final status of a case as the fallback path decides it, and the reason to store with it.
 *
 * @param status the case status
 * @param reason why (null for a plain PASSED on the requested backend)
 */
@PublicApi
public record Verdict(Status status, String reason) {
}
