// When a case is warm, the same rule as core/Settling.java (a test runs both on the same runs): once the count and the
// least duration are done, the warm-up runs are cut into blocks of about 250 ms of runs (3 to 100 runs); the case is warm
// when, at two judgements in a row, the last block's median is within 5 % of the block before it, faster or slower (three
// blocks at one level). Judged after every block;
// after 10 s of warm-ups (or 10000 runs) it gives up: not settled, its trend the last block's change. A warm-up of exact
// counts (no least duration) is neither extended nor judged.
export const FALL = 0.05;
export const MIN_BLOCK = 3;
export const MAX_BLOCK = 100;
export const BLOCK_MS = 250;
export const CAP_MS = 10000;
export const SAMPLE_CAP = 1000;
export const MAX_RUNS = 10000;

export function median(a, from, to) {
  if (to <= from) return NaN;
  const s = a.slice(from, to).sort((x, y) => x - y);
  // the same interpolation as Timings.percentile(sorted, 50)
  const pos = (s.length - 1) * 0.5;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

export function blockRuns(medianMs) {
  if (!(medianMs > 0)) return MIN_BLOCK;
  return Math.max(MIN_BLOCK, Math.min(MAX_BLOCK, Math.ceil(BLOCK_MS / medianMs)));
}

// One warm-up loop: add(ms) after each run; more(elapsedMs) before the next.
export class SettleLoop {
  constructor(warmups, warmupDurationMs) {
    this.warmups = warmups;
    this.warmupDurationMs = warmupDurationMs;
    this.runs = [];
    this.judgedAt = -1;
    this.levelBefore = false;
    this.settled = null;
    this.trend = NaN;
  }

  add(ms) { this.runs.push(ms); }

  more(elapsedMs) {
    const done = this.runs.length;
    const cap = Math.max(this.warmups, SAMPLE_CAP);
    if (done < this.warmups || (done < cap && elapsedMs < this.warmupDurationMs)) return true;
    if (this.warmupDurationMs <= 0 || this.settled === true) return false;
    const block = blockRuns(median(this.runs, Math.max(0, done - 10), done));
    if (done >= 2 * block && (this.judgedAt < 0 || done - this.judgedAt >= block)) {
      this.judgedAt = done;
      const last = median(this.runs, done - block, done);
      const before = median(this.runs, done - 2 * block, done - block);
      this.trend = before > 0 ? last / before - 1 : 0;
      const level = Math.abs(this.trend) <= FALL;
      if (level && this.levelBefore) {
        this.settled = true;
        return false;
      }
      this.levelBefore = level;
    }
    if (elapsedMs >= CAP_MS || done >= MAX_RUNS) {
      this.settled = false;
      return false;
    }
    return true;
  }
}

// The timed loop of a run or generation job (the rule of core/MinDurations): at least `iterations`, and on until
// msg.minDurationMs of timed runs have passed, at most msg.maxSamples. add(ms) after each run; more() before the next.
export class TimedLoop {
  constructor(msg, iterations) {
    this.iterations = iterations;
    this.minDurationMs = Math.max(0, Number(msg.minDurationMs) || 0);
    this.maxSamples = Math.max(iterations, msg.maxSamples | 0);
    this.done = 0;
    this.timedMs = 0;
  }

  add(ms) { this.done++; this.timedMs += ms; }

  more() { return this.done < this.iterations || (this.done < this.maxSamples && this.timedMs < this.minDurationMs); }
}
