// Accelbridge's observer (docs/observe.md), installed before any script of a user's page runs (Playwright's
// addInitScript). It records every onnxruntime-web session the page makes and each of its runs, however onnxruntime-web
// was loaded: imported, through transformers.js, or inlined in a bundle. Every build hands its C API to one plain object,
// the Emscripten module, and sets that object's PTR_SIZE after its _Ort* functions are in place and before its async
// wrappers are: a setter on Object.prototype for that one name finds the object, and accessors on it wrap the functions
// onnxruntime-web calls by name (what it assigns later is wrapped too). Nothing here may stop the page: every hook runs
// the real function whatever the observer makes of it. What it keeps is bounded, and said when cut. It sees only the
// page's own thread: onnxruntime-web in a worker (its proxy mode, or the app's own worker) is not observed.
(function () {
  'use strict';
  var KEY = Symbol.for('accelbridge.observer');
  if (globalThis[KEY]) return;
  var LIMITS = { sessions: 64, runsPerSession: 1000, runsWithValues: 4, tensorBytes: 1 << 20, modelBytes: 64 << 20 };
  // this document's own id, when its navigation began: a report from after a navigation is another document's, whose
  // sessions start again from 1
  var DOCUMENT = String(performance.timeOrigin);
  var ELEMENT_BYTES = { 1: 4, 2: 1, 3: 1, 4: 2, 5: 2, 6: 4, 7: 8, 9: 1, 10: 2, 11: 8, 12: 4, 13: 8, 16: 2 };
  var sessions = [];
  var notes = [];
  var modules = [];
  var dropped = { sessions: 0 };
  var keptModelBytes = 0;
  var instrumented = new WeakSet();

  function note(what, e) {
    if (notes.length < 50) notes.push(what + ': ' + String(e && e.message || e).slice(0, 300));
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

  function wrapName(M, name, hook) {
    var cur = M[name];
    var made = null;
    var madeOf = null;
    var depth = 0;
    Object.defineProperty(M, name, {
      configurable: true, enumerable: true,
      get: function () {
        if (typeof cur !== 'function') return cur;
        if (madeOf !== cur) {
          var f = cur;
          made = function () {
            var args = Array.prototype.slice.call(arguments);
            if (depth > 0) return f.apply(this, args); // a wrapper beneath ours calling through: counted once
            depth++;
            try { return hook(f, args, this); } finally { depth--; }
          };
          madeOf = cur;
        }
        return made;
      },
      set: function (v) { cur = v; },
    });
  }

  function heap(M) { return M.HEAPU8; }
  function u32(M, p) { return new DataView(M.HEAPU8.buffer).getUint32(p >>> 0, true); }
  function text(M, p) { try { return M.UTF8ToString(p >>> 0); } catch (e) { return null; } }
  function names(M, p, n) { var out = []; for (var i = 0; i < n; i++) out.push(text(M, u32(M, (p >>> 0) + 4 * i))); return out; }
  function handles(M, p, n) { var out = []; for (var i = 0; i < n; i++) out.push(u32(M, (p >>> 0) + 4 * i)); return out; }
  function dims(M, p, n) { var out = []; for (var i = 0; i < n; i++) out.push(u32(M, (p >>> 0) + 4 * i)); return out; }

  function tensorOf(M, type, dataPtr, shape, withValues) {
    var count = shape.reduce(function (a, b) { return a * b; }, 1);
    var size = ELEMENT_BYTES[type] ? count * ELEMENT_BYTES[type] : null;
    var t = { type: type, shape: shape, byteLength: size, values: null, cut: false };
    if (withValues && size !== null && dataPtr) {
      if (size <= LIMITS.tensorBytes) t.values = heap(M).slice(dataPtr >>> 0, (dataPtr >>> 0) + size);
      else t.cut = true;
    }
    return t;
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
        var l = eps.get(a[0]) || []; l.push({ name: text(M, a[1]), options: options }); eps.set(a[0], l);
      } catch (e) { note('provider', e); }
      return f.apply(self, a);
    });
    wrapName(M, '_OrtCreateSession', function (f, a, self) {
      var rec = null;
      try {
        if (sessions.length >= LIMITS.sessions) { dropped.sessions++; } else {
          var len = a[1] >>> 0;
          var copy = heap(M).slice(a[0] >>> 0, (a[0] >>> 0) + len);
          rec = { id: sessions.length + 1, byteLength: len, providers: (eps.get(a[2]) || []).map(function (p) { return p.name; }),
            providerOptions: (eps.get(a[2]) || []).map(function (p) { return p.options; }), engine: engine(), createdAt: Date.now(), createMs: null,
            created: false, released: false, runCount: 0, runs: [], sha256: null, bytes: null };
          rec.sha256 = globalThis.crypto && crypto.subtle ? crypto.subtle.digest('SHA-256', copy).then(hex, function () { return null; }) : null;
          if (keptModelBytes + len <= LIMITS.modelBytes) { rec.bytes = copy; keptModelBytes += len; }
          sessions.push(rec);
        }
      } catch (e) { note('session', e); }
      var t0 = performance.now();
      return after(f.apply(self, a), function (h) {
        if (!rec) return;
        rec.createMs = performance.now() - t0;
        rec.created = !!h;
        if (h) bySession.set(h >>> 0, rec);
      });
    });
    wrapName(M, '_OrtCreateTensor', function (f, a, self) {
      var desc = null;
      try { desc = a[5] === 1 || a[5] === undefined ? { type: a[0], ptr: a[1] >>> 0, shape: dims(M, a[3], a[4]) } : { type: a[0], ptr: 0, shape: dims(M, a[3], a[4]), location: a[5] }; } catch (e) { note('tensor', e); }
      var values = desc ? tensorOf(M, desc.type, desc.ptr, desc.shape, desc.ptr !== 0) : null;
      return after(f.apply(self, a), function (h) { if (h && values) tensors.set(h >>> 0, values); });
    });
    wrapName(M, '_OrtRun', function (f, a, self) {
      var run = null;
      var outPtr = a[6] >>> 0;
      var outCount = a[5] >>> 0;
      try {
        var rec = bySession.get(a[0] >>> 0);
        if (rec) {
          rec.runCount++;
          if (rec.runs.length < LIMITS.runsPerSession) {
            var withValues = rec.runs.length < LIMITS.runsWithValues;
            var inNames = names(M, a[1], a[3] >>> 0);
            var ins = handles(M, a[2], a[3] >>> 0).map(function (h, i) {
              var t = tensors.get(h) || { type: null, shape: null, byteLength: null, values: null };
              return { name: inNames[i], type: t.type, shape: t.shape, byteLength: t.byteLength, values: withValues ? t.values : null, cut: t.cut };
            });
            run = { ms: null, inputs: ins, outputs: names(M, a[4], outCount).map(function (n) { return { name: n }; }), withValues: withValues };
            rec.runs.push(run);
          }
        }
      } catch (e) { note('run', e); }
      var t0 = performance.now();
      return after(f.apply(self, a), function (code) {
        if (!run) return;
        run.ms = performance.now() - t0;
        run.code = code;
        handles(M, outPtr, outCount).forEach(function (h, i) { if (h) outputs.set(h >>> 0, { run: run, index: i }); });
      });
    });
    wrapName(M, '_OrtGetTensorData', function (f, a, self) {
      return after(f.apply(self, a), function (code) {
        var o = outputs.get(a[0] >>> 0);
        if (!o || code !== 0) return;
        outputs.delete(a[0] >>> 0);
        var type = u32(M, a[1]);
        var shape = dims(M, u32(M, a[3]), u32(M, a[4]));
        var t = tensorOf(M, type, u32(M, a[2]), shape, o.run.withValues);
        t.name = o.run.outputs[o.index].name;
        o.run.outputs[o.index] = t;
      });
    });
    wrapName(M, '_OrtReleaseSession', function (f, a, self) {
      var rec = bySession.get(a[0] >>> 0);
      if (rec) { rec.released = true; bySession.delete(a[0] >>> 0); }
      return f.apply(self, a);
    });
  }

  function hex(buf) {
    return Array.prototype.map.call(new Uint8Array(buf), function (b) { return (b < 16 ? '0' : '') + b.toString(16); }).join('');
  }

  function base64(bytes) {
    var s = '';
    for (var i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(s);
  }

  function tensorOut(t) {
    return { name: t.name || null, type: t.type === undefined ? null : t.type, shape: t.shape || null, byteLength: t.byteLength === undefined ? null : t.byteLength,
      values: t.values ? base64(t.values) : null, cut: !!t.cut };
  }

  // the onnxruntime-web WebAssembly modules the page instantiated from a URL (the engine's build, by its file name)
  function watchInstantiation() {
    var streaming = WebAssembly.instantiateStreaming;
    if (typeof streaming !== 'function') return;
    WebAssembly.instantiateStreaming = function (source) {
      try {
        Promise.resolve(source).then(function (r) {
          if (r && /ort-wasm[^/]*\.wasm/.test(String(r.url)) && modules.length < 16) modules.push(String(r.url).slice(0, 500));
        }, function () { /* the page sees its own error */ });
      } catch (e) { note('module', e); }
      return streaming.apply(this, arguments);
    };
  }

  try {
    Object.defineProperty(Object.prototype, 'PTR_SIZE', {
      configurable: true, enumerable: false,
      get: function () { return undefined; },
      set: function (v) {
        Object.defineProperty(this, 'PTR_SIZE', { value: v, writable: true, configurable: true, enumerable: true });
        try { if (typeof this._OrtCreateSession === 'function') instrument(this); } catch (e) { note('instrument', e); }
      },
    });
    watchInstantiation();
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
          out.push({ id: s.id, sha256: s.sha256 ? await s.sha256 : null, byteLength: s.byteLength, providers: s.providers, providerOptions: s.providerOptions, engine: s.engine, createdAt: s.createdAt,
            createMs: s.createMs, created: s.created, released: s.released, runCount: s.runCount, modelKept: !!s.bytes,
            runs: s.runs.map(function (r) {
              return { ms: r.ms, code: r.code === undefined ? null : r.code, inputs: r.inputs.map(tensorOut), outputs: r.outputs.map(tensorOut) };
            }) });
        }
        return { document: DOCUMENT, sessions: out, droppedSessions: dropped.sessions, modules: modules.slice(), notes: notes.slice() };
      },
      // a session's model bytes as base64, when they were kept (within the bound)
      model: function (id) {
        var s = sessions[id - 1];
        return s && s.bytes ? base64(s.bytes) : null;
      },
    }),
  });
})();
