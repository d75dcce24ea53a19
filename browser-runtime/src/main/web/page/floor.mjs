// When a case's figures sit on a latency floor, the rule of core/SampleStats.latencyFloor (a test runs both on the same
// samples), and when that stops its sampling, the rule of core/FloorStop: once FLOOR_RUNS of a loop's waits show the floor,
// more runs only measure the floor again (Firefox learns a finished WebGPU readback by a 100 ms poll: a speech-to-text
// generation there took 11.8 s, a floor its first steps already showed). A loop of exact counts is never cut.
import { median } from './settle.mjs';

export const TIMER_TICKS = 5;
export const POLL_MS = 10;
export const FLOOR_RUNS = 3;

// The floor the samples sit on (ms), or NaN: the timer's step under a median of fewer than 5 ticks, or a measured empty
// readback of at least 10 ticks with at least half of the samples on its multiples where chance would put that many with
// probability under 1e-3 (the binomial tail), or that itself takes a poll's time (POLL_MS) and a third of the median. A
// short readback that is merely a large share of the median is no evidence of polling.
export function latencyFloor(samples, timerResolutionMs, readbackMs) {
  if (samples.length === 0) return NaN;
  const res = timerResolutionMs > 0 ? timerResolutionMs : 0;
  const med = median(samples, 0, samples.length);
  if (res > 0 && med < TIMER_TICKS * res) return res;
  if (!(readbackMs > 0) || readbackMs < 10 * res || samples.length < 3) return NaN;
  let on = 0;
  let window = 0;
  for (const s of samples) {
    const k = Math.round(s / readbackMs);
    const tol = Math.max(2 * res, 0.02 * Math.max(1, k) * readbackMs);
    window = Math.max(window, (2 * tol) / readbackMs);
    if (k >= 1 && Math.abs(s - k * readbackMs) <= tol) on++;
  }
  const meaningful = window < 1 && 2 * on >= samples.length && binomialTail(samples.length, on, window) < 1e-3;
  // an empty readback that itself takes a poll's time is a poll, and at a third of the median it rules the figure
  const polled = readbackMs >= POLL_MS && readbackMs >= med / 3;
  return meaningful || polled ? readbackMs : NaN;
}

// P(X >= k) for X ~ Binomial(n, p), summed in logs as core/Binomial.tail sums it.
export function binomialTail(n, k, p) {
  if (k <= 0) return 1;
  if (p <= 0) return 0;
  let logC = 0;
  let sum = 0;
  for (let j = 1; j <= n; j++) {
    logC += Math.log((n - j + 1) / j);
    if (j >= k) sum += Math.exp(logC + j * Math.log(p) + (n - j) * Math.log1p(-p));
  }
  return sum;
}

// Whether a loop of `waits` (single passes' times, or a generation's steps after its first) stops on the floor: the loop
// has a least duration (not exact counts), and at least FLOOR_RUNS waits sit on a polled readback's floor (the timer's
// floor never stops a loop: a sub-tick model's figure is its many samples' mean).
export function stopsOnFloor(waits, clock, exact) {
  return !exact && waits.length >= FLOOR_RUNS && clock.readbackMs > 0
    && latencyFloor(waits, clock.timerResolutionMs, clock.readbackMs) === clock.readbackMs;
}
