// When a case's figures sit on a latency floor, the rule of core/LatencyFloor.of (a test runs both on the same
// samples), and when that stops its sampling, the rule of core/FloorStop: once FLOOR_RUNS of a loop's waits show the floor,
// more runs only measure the floor again (Firefox learns a finished WebGPU readback by a 100 ms poll: a speech-to-text
// generation there took 11.8 s, a floor its first steps already showed). A loop of exact counts is never cut.
import { median } from './settle.mjs';

export const TIMER_TICKS = 5;
export const POLL_MS = 10;
export const FLOOR_RUNS = 3;

// The floor the samples sit on (ms), or NaN: the timer's step under a median of fewer than 5 ticks; a measured empty
// readback that itself takes a poll's time (POLL_MS) when it is a third of the median or at least half of the samples
// sit on its multiples where chance would put that many with probability under 1e-3 (the binomial tail); a shorter
// readback (at least 10 ticks) only when the samples sit on SHORT_STEPS or more of its multiples, each multiple counted
// once, on when three in four of its samples sit on it (samples clustered around one time are one observation), under
// 1e-3 by each multiple's own chance (the Poisson binomial tail).
export const SHORT_STEPS = 3;

export function latencyFloor(samples, timerResolutionMs, readbackMs) {
  if (samples.length === 0) return NaN;
  const res = timerResolutionMs > 0 ? timerResolutionMs : 0;
  const med = median(samples, 0, samples.length);
  if (res > 0 && med < TIMER_TICKS * res) return res;
  if (!(readbackMs > 0) || readbackMs < 10 * res || samples.length < 3) return NaN;
  if (readbackMs >= POLL_MS) {
    return readbackMs >= med / 3 || samplesOnSteps(samples, res, readbackMs) ? readbackMs : NaN;
  }
  return stepsOnMultiples(samples, res, readbackMs) ? readbackMs : NaN;
}

const tolerance = (k, res, readbackMs) => Math.max(2 * res, 0.02 * Math.max(1, k) * readbackMs);

function samplesOnSteps(samples, res, readbackMs) {
  let on = 0;
  let window = 0;
  for (const s of samples) {
    const k = Math.round(s / readbackMs);
    const tol = tolerance(k, res, readbackMs);
    window = Math.max(window, (2 * tol) / readbackMs);
    if (k >= 1 && Math.abs(s - k * readbackMs) <= tol) on++;
  }
  return window < 1 && 2 * on >= samples.length && binomialTail(samples.length, on, window) < 1e-3;
}

function stepsOnMultiples(samples, res, readbackMs) {
  const steps = new Map();
  for (const s of samples) {
    const k = Math.round(s / readbackMs);
    if (!steps.has(k)) steps.set(k, []);
    steps.get(k).push(s);
  }
  const chance = [];
  let on = 0;
  for (const k of [...steps.keys()].sort((a, b) => a - b)) {
    const tol = tolerance(k, res, readbackMs);
    chance.push(Math.min(1, (2 * tol) / readbackMs));
    // on when three in four of its samples sit within the tolerance: its samples' median sits near the multiple whatever
    // the times are (they are the samples nearest it)
    const v = steps.get(k);
    const within = v.filter((x) => Math.abs(x - k * readbackMs) <= tol).length;
    if (k >= 1 && 4 * within >= 3 * v.length) on++;
  }
  return on >= SHORT_STEPS && 2 * on >= steps.size && poissonTail(chance, on) < 1e-3;
}

// P(X >= k) for X the successes of independent trials with chances p, as core/Binomial.poissonTail computes it.
export function poissonTail(p, k) {
  const dist = new Array(p.length + 1).fill(0);
  dist[0] = 1;
  for (let t = 0; t < p.length; t++) {
    for (let j = t + 1; j >= 1; j--) dist[j] = dist[j] * (1 - p[t]) + dist[j - 1] * p[t];
    dist[0] *= 1 - p[t];
  }
  let sum = 0;
  for (let j = Math.max(0, k); j <= p.length; j++) sum += dist[j];
  return sum;
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
