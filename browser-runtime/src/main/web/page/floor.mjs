// When a case's figures sit on a latency floor, the rule of core/SampleStats.latencyFloor (a test runs both on the same
// samples), and when that stops its sampling, the rule of core/FloorStop: once FLOOR_RUNS of a loop's waits show the floor,
// more runs only measure the floor again (Firefox learns a finished WebGPU readback by a 100 ms poll: a speech-to-text
// generation there took 11.8 s, a floor its first steps already showed). A loop of exact counts is never cut.
import { median } from './settle.mjs';

export const FLOOR_SHARE = 1 / 3;
export const TIMER_TICKS = 5;
export const FLOOR_RUNS = 3;

// The floor the samples sit on (ms), or NaN: the timer's step under a median of fewer than 5 ticks, or a measured empty
// readback of at least 10 ticks that is a third of the median or has 90 % of the samples on its multiples where chance
// would put them with probability under 1e-3.
export function latencyFloor(samples, timerResolutionMs, readbackMs) {
  if (samples.length === 0) return NaN;
  const res = timerResolutionMs > 0 ? timerResolutionMs : 0;
  const med = median(samples, 0, samples.length);
  if (res > 0 && med < TIMER_TICKS * res) return res;
  if (!(readbackMs > 0) || readbackMs < 10 * res) return NaN;
  if (readbackMs >= FLOOR_SHARE * med) return readbackMs;
  if (samples.length < 3) return NaN;
  let on = 0;
  let window = 0;
  for (const s of samples) {
    const k = Math.round(s / readbackMs);
    const tol = Math.max(2 * res, 0.02 * Math.max(1, k) * readbackMs);
    window = Math.max(window, (2 * tol) / readbackMs);
    if (k >= 1 && Math.abs(s - k * readbackMs) <= tol) on++;
  }
  const needed = Math.ceil(0.9 * samples.length);
  const meaningful = window < 1 && Math.pow(window, needed) < 1e-3;
  return meaningful && on >= needed ? readbackMs : NaN;
}

// Whether a loop of `waits` (single passes' times, or a generation's steps after its first) stops on the floor: the loop
// has a least duration (not exact counts), and at least FLOOR_RUNS waits sit on a polled readback's floor (the timer's
// floor never stops a loop: a sub-tick model's figure is its many samples' mean).
export function stopsOnFloor(waits, clock, exact) {
  return !exact && waits.length >= FLOOR_RUNS && clock.readbackMs > 0
    && latencyFloor(waits, clock.timerResolutionMs, clock.readbackMs) === clock.readbackMs;
}
