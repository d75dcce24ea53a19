// Accelbridge's observer (docs/observe.md), installed before any script of a user's page runs (Playwright's
// addInitScript), just after its parts (observer-parts.js: stateless helpers; observer-times.js: its clocks and hash;
// observer-gpu.js: IO binding and GPU tensors). It records every onnxruntime-web session the page makes and each of its
// runs, however onnxruntime-web was loaded: imported, through transformers.js, or inlined in a bundle. Every build hands its C API to one plain object,
// the Emscripten module, and sets that object's PTR_SIZE after its _Ort* functions are in place and before its async
// wrappers are: a setter on Object.prototype for that one name finds the object, and accessors on it wrap the functions
// onnxruntime-web calls by name (what it assigns later is wrapped too). Nothing here may stop the page: every hook runs
// the real function whatever the observer makes of it. What it keeps is bounded, and said when cut. The same script is
// put into every dedicated worker (CDP's auto-attach, where the browser allows it) and every frame: each realm reports
// on its own, and says which workers it started, so a worker nobody could enter is said, never taken as absent.
(function () {
  'use strict';
  var KEY = Symbol.for('accelbridge.observer');
  var PARTS = Symbol.for('accelbridge.observer.parts');
  var TIMES = Symbol.for('accelbridge.observer.times');
  var GPU = Symbol.for('accelbridge.observer.gpu');
  var P = globalThis[PARTS], T = globalThis[TIMES], G = globalThis[GPU];
  delete globalThis[PARTS], delete globalThis[TIMES], delete globalThis[GPU]; // taken: the page keeps nothing of the parts
  if (globalThis[KEY] || !P || !T || !G) return;
  var heap = P.heap, u32 = P.u32, text = P.text, names = P.names, handles = P.handles, dims = P.dims, base64 = P.base64;
  var clock = T.clock, dateNow = T.now, elapsed = T.elapsed, sha256Of = T.sha256Of;
  var wrapName = P.wrapName, B = P.B, push = B.push, map = B.map, slice = B.slice, strSlice = B.strSlice, u8slice = B.u8slice;
  // a tensor over the report's bound is held whole for the driver to write to disk (tensorPart, releaseTensor), within
  // the realm's budget shared with the models it holds; past it, it is cut
  function tensorOf(M, type, dataPtr, shape, withValues) {
    var t = P.tensorOf(M, type, dataPtr, shape, withValues, LIMITS.tensorBytes);
    if (t.cut) { t.cut = false; keep(t, M.HEAPU8, dataPtr >>> 0); }
    return t;
  }
  // a tensor's values from source at from: in the report up to its bound, held for the driver within the budget, else cut
  function keep(t, source, from) {
    var n = t.byteLength;
    if (n <= LIMITS.tensorBytes) t.values = u8slice(source, from, from + n);
    else if (keptModelBytes + heldBytes + n <= LIMITS.modelBytes) { t.held = push(held, u8slice(source, from, from + n)); heldBytes += n; }
    else t.cut = true;
    return t;
  }
  // the model bytes a realm holds for the driver at once: the driver's budget where it set one (a copy is let go as soon as
  // the driver has it on disk), else 64 MiB
  var BUDGET = Number(globalThis[Symbol.for('accelbridge.observer.keep')]);
  // a run is recorded with its values while the realm has kept less than valueBytes of them (in the report and held); past
  // it, runs spread evenly over each session (P.sampler), so the report stays within the reader's bound
  var VALUES = Number(globalThis[Symbol.for('accelbridge.observer.values')]);
  var LIMITS = { sessions: 64, runsPerSession: 1000, valueBytes: VALUES > 0 && VALUES <= 1 << 30 ? VALUES : 32 << 20,
    tensorBytes: 1 << 20, started: 32, chunk: 8 << 20, report: 64 << 20,
    modelBytes: BUDGET > 0 && BUDGET <= Number.MAX_SAFE_INTEGER ? BUDGET : 64 << 20 };
  // this document's own id, when its navigation began: a report from after a navigation is another document's, whose
  // sessions start again from 1
  var DOCUMENT = String(performance.timeOrigin);
  var sessions = [], notes = [], modules = [], started = [], versions = [], held = [], contexts = new WeakMap(), adapters = [];
  var dropped = { sessions: 0 };
  var keptModelBytes = 0, heldBytes = 0, values = P.sampler(LIMITS.valueBytes, 16 << 10);
  var createObjectURL = URL.createObjectURL, revokeObjectURL = URL.revokeObjectURL, BlobBefore = Blob; // as before the page's scripts
  // how a document has the browser save a blob: URL, as before the page's scripts (found when tried: a page that replaced
  // HTMLAnchorElement.prototype.click had another model of the same length saved, kept and judged in its place)
  var doc = typeof document === 'object' && document ? document : null;
  var makeElement = doc ? Function.prototype.call.bind(Document.prototype.createElement) : null;
  var setAttribute = doc ? Function.prototype.call.bind(Element.prototype.setAttribute) : null;
  var clickOf = doc ? Function.prototype.call.bind(HTMLElement.prototype.click) : null;
  var valued = values.count;
  var instrumented = new WeakSet();

  function note(what, e) {
    if (notes.length < 50) push(notes, what + ': ' + strSlice(String(e && e.message || e), 0, 300));
  }

  // the result of a call, sync or a promise, handed to fn when it is there; the page gets the call's own result
  function after(r, fn) {
    if (r && typeof r.then === 'function') {
      r.then(function (v) { try { fn(v); } catch (e) { note('after', e); } }, function () { /* the page sees its own error */ });
    } else {
      try { fn(r); } catch (e) { note('after', e); }
    }
    return r;
  }

  function instrument(M) {
    if (instrumented.has(M)) return;
    instrumented.add(M);
    // read when a session is made, not now: the native WebGPU EP's build sets webgpuInit after PTR_SIZE
    var engine = function () {
      return typeof M.jsepInit === 'function' ? 'jsep' : typeof M.webgpuInit === 'function' ? 'webgpu-ep' : 'wasm';
    };
    var eps = new Map();
    var tensors = new Map();
    var bySession = new Map();
    var outputs = new Map();

    wrapName(M, '_OrtAppendExecutionProvider', function (f, a, self) {
      try {
        // (options, name, keys, values, count): the EP's options as the app gave them (WebNN's deviceType among them)
        var options = {};
        for (var i = 0; i < Math.min(a[4] >>> 0, 32); i++) options[text(M, u32(M, (a[2] >>> 0) + 4 * i))] = text(M, u32(M, (a[3] >>> 0) + 4 * i));
        var l = eps.get(a[0]) || []; push(l, { name: text(M, a[1]), options: options }); eps.set(a[0], l);
      } catch (e) { note('provider', e); }
      return f.apply(self, a);
    });
    // the session's graph optimization level as the app gave it, by options handle: a replay of its run runs with it
    var levels = new Map(), LEVELS = { 0: 'disabled', 1: 'basic', 2: 'extended', 99: 'all' };
    wrapName(M, '_OrtCreateSessionOptions', function (f, a, self) { return after(f.apply(self, a), function (h) { levels.set(h, LEVELS[a[0]] || null); }); });
    // the session's config entries (onnxruntime-web 1.30 passes WebNN's deviceType as one, not as an EP option)
    var configs = new Map();
    wrapName(M, '_OrtAddSessionConfigEntry', function (f, a, self) {
      try {
        var c = configs.get(a[0]) || {};
        if (B.keys(c).length < 32) c[strSlice(String(text(M, a[1])), 0, 100)] = strSlice(String(text(M, a[2])), 0, 200);
        configs.set(a[0], c);
      } catch (e) { note('config', e); }
      return f.apply(self, a);
    });
    // weights kept as external data: the files onnxruntime-web mounts for the session it makes next (held by reference,
    // within the budget, until the reader has them), unmounted once it is made
    var mounted = [];
    wrapName(M, 'mountExternalData', function (f, a, self) {
      try {
        var bytes = a[1] instanceof Uint8Array ? a[1] : null;
        var e = { path: strSlice(String(a[0]), 0, 300), byteLength: bytes ? bytes.length : null, bytes: null, sha256: null };
        if (bytes && keptModelBytes + bytes.length <= LIMITS.modelBytes) { e.bytes = bytes; keptModelBytes += bytes.length; }
        if (bytes) e.sha256 = sha256Of(bytes);
        if (mounted.length < 64) push(mounted, e);
      } catch (err) { note('external', err); }
      return f.apply(self, a);
    });
    wrapName(M, 'unmountExternalData', function (f, a, self) {
      mounted = [];
      return f.apply(self, a);
    });
    wrapName(M, '_OrtCreateSession', function (f, a, self) {
      var rec = null;
      try {
        if (sessions.length >= LIMITS.sessions) { dropped.sessions++; } else {
          var len = a[1] >>> 0;
          var copy = u8slice(heap(M), a[0] >>> 0, (a[0] >>> 0) + len);
          rec = { id: sessions.length + 1, byteLength: len, providers: map(eps.get(a[2]) || [], function (p) { return p.name; }),
            providerOptions: map(eps.get(a[2]) || [], function (p) { return p.options; }), config: configs.get(a[2]) || {}, context: (M.currentContext && contexts.get(M.currentContext)) || {}, optimization: levels.get(a[2]) || null, adapter: adapters.length ? adapters[adapters.length - 1] : null, engine: engine(),
            ortWebVersion: versions.length ? versions[versions.length - 1] : null, createdAt: dateNow(), createMs: null,
            created: false, released: false, runCount: 0, runs: [], sha256: null, bytes: null, external: slice(mounted) };
          rec.sha256 = sha256Of(copy);
          if (keptModelBytes + len <= LIMITS.modelBytes) { rec.bytes = copy; keptModelBytes += len; }
          push(sessions, rec);
        }
      } catch (e) { note('session', e); }
      var t0 = clock();
      return after(f.apply(self, a), function (h) {
        if (!rec) return;
        rec.createMs = elapsed(t0);
        rec.created = !!h;
        if (!h) failing = rec;
        if (h) bySession.set(h >>> 0, rec);
      });
    });
    // GPU tensors followed by identity, not by name (observer-gpu.js): an output read back by the app keeps its values
    var gpu = G(M, { wrapName: wrapName, after: after, note: note, text: text, tensors: tensors, B: B,
      keep: function (t, view) { valued(keep(t, view, 0)); } });
    wrapName(M, '_OrtCreateTensor', function (f, a, self) {
      var desc = null;
      try { desc = a[5] === 1 || a[5] === undefined ? { type: a[0], ptr: a[1] >>> 0, shape: dims(M, a[3], a[4]) } : { type: a[0], ptr: 0, shape: dims(M, a[3], a[4]), location: a[5], data: a[1] >>> 0 }; } catch (e) { note('tensor', e); }
      // its values are read when a run is recorded with them, not at every creation
      var values = desc ? tensorOf(M, desc.type, 0, desc.shape, false) : null;
      if (values) { values.cpu = !desc.location; values.ptr = desc.ptr; values.from = desc.location ? gpu.originOf(desc.data) : null; }
      return after(f.apply(self, a), function (h) { if (h && values) tensors.set(h >>> 0, values); });
    });
    wrapName(M, '_OrtReleaseTensor', function (f, a, self) {
      tensors.delete(a[0] >>> 0);
      return f.apply(self, a);
    });
    // onnxruntime-web's own words for the call that failed last (a session it could not make, a run that failed)
    var failing = null;
    wrapName(M, '_OrtGetLastError', function (f, a, self) {
      return after(f.apply(self, a), function () {
        if (!failing) return;
        var words = text(M, u32(M, a[1]));
        if (words) failing.error = strSlice(String(words), 0, 500);
        failing = null;
      });
    });

    // one run, through _OrtRun or _OrtRunWithBinding: its inputs (name, tensor handle), its outputs (name, on the CPU or not)
    function recordRun(rec, ins, outs, through) {
      rec.runCount++;
      if (rec.runs.length >= LIMITS.runsPerSession) return null;
      var withValues = values.keeps(rec.runs.length);
      var run = { ms: null, through: through, withValues: withValues, session: rec.id, index: rec.runs.length, outputs: map(outs, function (o) { return { name: o.name, cpu: o.cpu }; }),
        inputs: map(ins, function (x) {
          var t = tensors.get(x.handle) || { type: null, shape: null, byteLength: null, values: null };
          var v = t.cpu && (withValues || values.small(t)) ? valued(tensorOf(M, t.type, t.ptr, t.shape, true)) : { values: null, cut: false };
          return { name: x.name, type: t.type, shape: t.shape, byteLength: t.byteLength, values: v.values, cut: v.cut, held: v.held,
            onDevice: t.cpu === false, from: t.from ? { session: t.from.session, run: t.from.run, output: t.from.output } : null };
        }) };
      push(rec.runs, values.kept(run));
      return run;
    }
    function ranRun(run, code, outPtr, outCount, t0) {
      if (!run) return;
      run.ms = elapsed(t0);
      run.code = code;
      if (code !== 0) { failing = run; return; }
      B.forEach(handles(M, outPtr, outCount), function (h, i) { if (h && run.outputs[i]) outputs.set(h >>> 0, { run: run, index: i }); });
    }
    wrapName(M, '_OrtRunWithBinding', function (f, a, self) {
      // (session, binding, outputCount, outputs, runOptions)
      var run = null;
      var outPtr = a[3] >>> 0;
      var outCount = a[2] >>> 0;
      try {
        var rec = bySession.get(a[0] >>> 0);
        var b = gpu.bound(a[1]);
        if (rec) run = recordRun(rec, b.inputs, b.outputs, 'binding');
      } catch (e) { note('run', e); }
      var t0 = clock();
      return after(f.apply(self, a), function (code) { ranRun(run, code, outPtr, outCount, t0); });
    });
    wrapName(M, '_OrtRun', function (f, a, self) {
      var run = null;
      var outPtr = a[6] >>> 0;
      var outCount = a[5] >>> 0;
      try {
        var rec = bySession.get(a[0] >>> 0);
        if (rec) {
          var inNames = names(M, a[1], a[3] >>> 0);
          var ins = map(handles(M, a[2], a[3] >>> 0), function (h, i) { return { name: inNames[i], handle: h }; });
          run = recordRun(rec, ins, map(names(M, a[4], outCount), function (n) { return { name: n, cpu: true }; }), 'run');
        }
      } catch (e) { note('run', e); }
      var t0 = clock();
      return after(f.apply(self, a), function (code) { ranRun(run, code, outPtr, outCount, t0); });
    });
    wrapName(M, '_OrtGetTensorData', function (f, a, self) {
      return after(f.apply(self, a), function (code) {
        var o = outputs.get(a[0] >>> 0);
        if (!o || code !== 0) return;
        outputs.delete(a[0] >>> 0);
        var type = u32(M, a[1]);
        var shape = dims(M, u32(M, a[3]), u32(M, a[4]));
        var cpu = o.run.outputs[o.index].cpu !== false;
        // an output kept on the GPU hands back a buffer's id where a CPU one has its data: its shape only
        var t = valued(tensorOf(M, type, cpu ? u32(M, a[2]) : 0, shape, cpu && o.run.withValues));
        t.name = o.run.outputs[o.index].name;
        t.onDevice = !cpu;
        o.run.outputs[o.index] = t;
        if (!cpu) gpu.origin(u32(M, a[2]), { session: o.run.session, run: o.run.index, output: t.name, tensor: t, owner: o.run });
      });
    });
    wrapName(M, '_OrtReleaseSession', function (f, a, self) {
      var rec = bySession.get(a[0] >>> 0);
      if (rec) { rec.released = true; bySession.delete(a[0] >>> 0); }
      return f.apply(self, a);
    });
  }

  function bytesOf(ref) {
    var s = ref && ref[0] !== 'tensor' ? sessions[ref[1] - 1] : null;
    if (ref && ref[0] === 'model') return s && s.bytes;
    if (ref && ref[0] === 'external') return s && s.external[ref[2]] && s.external[ref[2]].bytes;
    return ref && ref[0] === 'tensor' ? held[ref[1] - 1] : null;
  }

  function tensorOut(t) {
    return { name: t.name || null, type: t.type === undefined ? null : t.type, shape: t.shape || null, byteLength: t.byteLength === undefined ? null : t.byteLength,
      values: t.values ? base64(t.values) : null, cut: !!t.cut, held: t.held || null, onDevice: !!t.onDevice, from: t.from || null };
  }

  try {
    Object.defineProperty(Object.prototype, 'PTR_SIZE', {
      configurable: true, enumerable: false,
      get: function () { return undefined; },
      set: function (v) {
        // as the assignment does without the observer: a primitive or a frozen object keeps nothing, and nothing throws
        if (this === null || (typeof this !== 'object' && typeof this !== 'function') || !B.isExtensible(this)) return;
        B.defineProperty(this, 'PTR_SIZE', { value: v, writable: true, configurable: true, enumerable: true });
        try { if (typeof this._OrtCreateSession === 'function') instrument(this); } catch (e) { note('instrument', e); }
      },
    });
    P.watchInstantiation(modules, note);
    P.watchThreads(started, LIMITS.started, note);
    P.watchVersions(versions, note);
    P.watchContexts(contexts, note);
    P.watchAdapters(adapters, note);
  } catch (e) {
    note('install', e);
  }

  Object.defineProperty(globalThis, KEY, {
    value: Object.freeze({
      // what was observed, as JSON-ready values (a model's sha256 worked out by then)
      report: async function () {
        var out = [];
        for (var i = 0; i < sessions.length; i++) {
          var s = sessions[i];
          push(out, { id: s.id, sha256: s.sha256 ? await s.sha256 : null, byteLength: s.byteLength, providers: s.providers, providerOptions: s.providerOptions, config: s.config, context: s.context, optimization: s.optimization, adapter: s.adapter, engine: s.engine, ortWebVersion: s.ortWebVersion, createdAt: s.createdAt,
            createMs: s.createMs, created: s.created, released: s.released, runCount: s.runCount, modelKept: !!s.bytes || !!s.handedOver, error: s.error || null,
            external: await B.all(map(s.external, async function (e) {
              return { path: e.path, byteLength: e.byteLength, sha256: e.sha256 ? await e.sha256 : null, kept: !!e.bytes || !!s.handedOver };
            })),
            runs: map(s.runs, function (r) {
              return { ms: r.ms, code: r.code === undefined ? null : r.code, through: r.through, error: r.error || null,
                inputs: map(r.inputs, tensorOut), outputs: map(r.outputs, tensorOut) };
            }) });
        }
        return { document: DOCUMENT, sessions: out, droppedSessions: dropped.sessions, modules: slice(modules), notes: slice(notes),
          started: slice(started), timerStepMs: T.timerStep() };
      },
      // the report as JSON by the observer's own rules (no toJSON of the page's), within the reader's bound
      reportJson: async function () { return P.reportJson(await globalThis[KEY].report(), LIMITS.report); },
      // a session's model bytes as base64, when they were kept (within the bound)
      model: function (id) {
        var s = sessions[id - 1];
        return s && s.bytes ? base64(s.bytes) : null;
      },
      // what a driver moves to disk, by reference: ['model', id], ['external', id, index], ['tensor', held id]; as parts of
      // base64 (at most 8 MiB from offset), or as a blob: URL the browser itself writes to disk (revoked by the driver)
      part: function (ref, offset) {
        var b = bytesOf(ref);
        if (!b || !(offset >= 0) || offset > b.length) return null;
        return base64(b.subarray(offset, Math.min(b.length, offset + LIMITS.chunk)));
      },
      blobUrl: function (ref) {
        var b = bytesOf(ref);
        return b ? createObjectURL(new BlobBefore([b])) : null;
      },
      revoke: function (url) { if (strSlice(String(url), 0, 5) === 'blob:') revokeObjectURL(String(url)); },
      // has the browser save a blob: URL of any realm of the page as a download, through this document (the page's)
      save: function (url) {
        if (!doc || strSlice(String(url), 0, 5) !== 'blob:') return false;
        var a = makeElement(doc, 'a');
        setAttribute(a, 'href', String(url));
        setAttribute(a, 'download', 'kept');
        clickOf(a);
        return true;
      },
      releaseTensor: function (id) {
        var b = held[id - 1];
        if (!b) return false;
        heldBytes -= b.length;
        held[id - 1] = null;
        return true;
      },
      handOver: function (id) {
        var s = sessions[id - 1];
        if (!s || !s.bytes) return false;
        keptModelBytes -= s.bytes.length;
        B.forEach(s.external, function (e) { if (e.bytes) { keptModelBytes -= e.bytes.length; e.bytes = null; } });
        s.bytes = null;
        s.handedOver = true;
        return true;
      },
    }),
  });
})();
