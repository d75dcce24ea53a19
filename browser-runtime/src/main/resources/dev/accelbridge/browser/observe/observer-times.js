// Accelbridge's observer (observer.js, docs/observe.md): its clocks and its hash of what a page gives onnxruntime-web, taken
// before any script of the page runs, put in just after the observer's stateless parts (observer-parts.js) and handed over
// by one property that observer.js takes and removes.
(function () {
  'use strict';
  if (globalThis[Symbol.for('accelbridge.observer')]) return; // observed already: its hooks are in place
  var P = globalThis[Symbol.for('accelbridge.observer.parts')];
  if (!P) return;
  var hex = P.hex;
  // the clocks as they were before any script of the page ran: a page may replace Date.now or performance.now (found when
  // tried: a Date for a time refused the realm's report; 1e300 once from performance.now stored a load of -1e300 ms)
  var clock = typeof performance === 'object' && performance ? performance.now.bind(performance) : Date.now, dateNow = Date.now;
  // the page's own hash of what it was given, by WebCrypto as it was before the page's scripts, and never waited on past
  // 10 s (found when tried: a digest that never settled held the report, and the visit ended as "no session"); it is
  // taken for nothing by the reader, which hashes the bytes it keeps
  // (a worker held at its start has only the language's built-ins yet, found when tried: WebCrypto and the timers are
  // taken there at their first use instead)
  var subtle = null, digestOf = null, later = typeof setTimeout === 'function' ? setTimeout : null;
  function webCrypto() {
    try {
      subtle = globalThis.crypto && crypto.subtle ? crypto.subtle : null;
      digestOf = subtle ? Function.prototype.call.bind(Object.getPrototypeOf(subtle).digest) : null;
    } catch (e) { subtle = null; digestOf = null; } // a realm without WebCrypto: no hash of its own, as before
  }
  webCrypto();
  var PromiseBefore = Promise, thenOf = Function.prototype.call.bind(Promise.prototype.then);
  function sha256Of(bytes) {
    if (!digestOf) webCrypto();
    if (!later && typeof setTimeout === 'function') later = setTimeout;
    if (!digestOf || !later) return null;
    var hashed = thenOf(digestOf(subtle, 'SHA-256', bytes), hex, function () { return null; });
    return new PromiseBefore(function (done) { later(function () { done(null); }, 10000); thenOf(hashed, done, function () { done(null); }); });
  }
  // the clock's smallest step, measured once when the first report asks (up to 200 steps or 20 ms), off the app's runs
  var timerStep;
  function step() {
    if (timerStep !== undefined) return timerStep;
    var best = Infinity, start = clock();
    for (var i = 0; i < 200 && clock() - start < 20; i++) {
      var a = clock(), b = a;
      while (b === a && clock() - start < 20) b = clock();
      if (b > a) best = Math.min(best, b - a);
    }
    timerStep = best > 0 && best < 1000 ? best : null;
    return timerStep;
  }
  function elapsed(t0) { var ms = clock() - t0; return ms >= 0 && ms < 1e12 ? ms : null; }
  Object.defineProperty(globalThis, Symbol.for('accelbridge.observer.times'), {
    configurable: true,
    value: Object.freeze({ clock: clock, now: dateNow, elapsed: elapsed, sha256Of: sha256Of, timerStep: step }),
  });
})();
