// The parts of Accelbridge's observer (observer.js, docs/observe.md) that hold none of its state: reading the
// WebAssembly heap, encoding what is kept, and watching what a realm starts and loads (its workers, the onnxruntime-web
// modules it instantiates and the releases they say they are). Put in just before observer.js, which takes them from the one property they are handed over by and
// removes it, so the page keeps nothing of them but the observer's own hooks.
(function () {
  'use strict';
  if (globalThis[Symbol.for('accelbridge.observer')]) return; // observed already: its hooks are in place

  // the built-ins the observer calls, taken before any script of the page runs: a page may replace them later (found when
  // tried: Array.prototype.map or slice replaced silenced the observer; Prototype.js's Array.prototype.toJSON turned a
  // session's report into "no session"), and the observer must neither depend on that nor change what the page's do
  var call = Function.prototype.call;
  var B = {
    map: call.bind(Array.prototype.map), filter: call.bind(Array.prototype.filter), forEach: call.bind(Array.prototype.forEach),
    push: call.bind(Array.prototype.push), slice: call.bind(Array.prototype.slice), strSlice: call.bind(String.prototype.slice),
    u8slice: call.bind(Object.getPrototypeOf(Uint8Array.prototype).slice), keys: Object.keys, all: Promise.all.bind(Promise),
    isArray: Array.isArray, isExtensible: Object.isExtensible, defineProperty: Object.defineProperty,
  };
  var charCode = call.bind(String.prototype.charCodeAt), numText = call.bind(Number.prototype.toString);
  // a string JSON holds as it is: no quote, backslash, control character or surrogate (control characters are the point)
  // eslint-disable-next-line no-control-regex
  var plainText = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;
  Object.defineProperty(plainText, 'exec', { value: RegExp.prototype.exec }); // its own exec, whatever the page puts on RegExp
  var test = call.bind(RegExp.prototype.test);
  function quote(s) {
    if (test(plainText, s)) return '"' + s + '"';
    var out = '"';
    for (var i = 0; i < s.length; i++) {
      var c = charCode(s, i);
      // every surrogate escaped: a lone one stays valid JSON, a pair reads back as the same code units
      out += c === 34 ? '\\"' : c === 92 ? '\\\\' : c < 32 || (c >= 0xd800 && c <= 0xdfff)
        ? '\\u' + B.strSlice('000' + numText(c, 16), -4) : s[i];
    }
    return out + '"';
  }
  // JSON of plain data (what the report is made of), by the observer's own rules: no toJSON of the page's is called
  function json(v) {
    if (v === null || v === undefined || typeof v === 'function') return 'null';
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (typeof v === 'number') return isFinite(v) ? '' + v : 'null';
    if (typeof v === 'string') return quote(v);
    var parts = [];
    if (B.isArray(v)) {
      for (var i = 0; i < v.length; i++) B.push(parts, json(v[i]));
    } else {
      B.forEach(B.keys(v), function (k) { if (v[k] !== undefined && typeof v[k] !== 'function') B.push(parts, quote(k) + ':' + json(v[k])); });
    }
    var body = '';
    for (var j = 0; j < parts.length; j++) body += (j ? ',' : '') + parts[j];
    return B.isArray(v) ? '[' + body + ']' : '{' + body + '}';
  }

  // a realm's report as JSON; past the reader's bound, its sessions counted only and the report's size said
  function reportJson(r, limit) {
    var text = json(r);
    return text.length <= limit ? text : json({ document: r.document, sessions: [], droppedSessions: r.sessions.length + r.droppedSessions,
      modules: r.modules, notes: ['report: ' + text.length + ' characters, past the bound of ' + limit + ': its sessions are counted only'],
      started: r.started, timerStepMs: r.timerStepMs });
  }

  function heap(M) { return M.HEAPU8; }
  // one view of the heap while its buffer stays the same (a new one after the memory grows), not one made at every read:
  // a run reads a dozen words
  var view = null;
  function u32(M, p) {
    var b = M.HEAPU8.buffer;
    if (!view || view.buffer !== b) view = new DataView(b);
    return view.getUint32(p >>> 0, true);
  }
  // a name or a word onnxruntime-web holds, cut to what a report keeps (found when tried: an input name of 21 M characters
  // was past what the reader takes, and the realm's whole report was refused)
  var TEXT = 4096;
  function text(M, p) {
    try {
      var s = M.UTF8ToString(p >>> 0, TEXT * 4);
      return typeof s === 'string' ? B.strSlice(s, 0, TEXT) : null;
    } catch (e) { return null; }
  }
  function words(M, p, n) { var out = []; for (var i = 0; i < n; i++) B.push(out, u32(M, (p >>> 0) + 4 * i)); return out; }
  function names(M, p, n) { return B.map(words(M, p, n), function (q) { return text(M, q); }); }

  // the bytes of an element of each ONNX element type
  var ELEMENT_BYTES = { 1: 4, 2: 1, 3: 1, 4: 2, 5: 2, 6: 4, 7: 8, 9: 1, 10: 2, 11: 8, 12: 4, 13: 8, 16: 2 };

  function tensorOf(M, type, dataPtr, shape, withValues, maxBytes) {
    var count = 1;
    for (var i = 0; i < shape.length; i++) count *= shape[i];
    var size = ELEMENT_BYTES[type] ? count * ELEMENT_BYTES[type] : null;
    if (size !== null && !(size >= 0 && size <= Number.MAX_SAFE_INTEGER)) size = null; // no tensor has it: a length the reader's long cannot be
    var t = { type: type, shape: shape, byteLength: size, values: null, cut: false };
    if (withValues && size === 0) {
      t.values = new Uint8Array(0); // an empty tensor (a decoder's first past) has no data to point at, and needs none
    } else if (withValues && size !== null && dataPtr) {
      if (size <= maxBytes) t.values = B.u8slice(M.HEAPU8, dataPtr >>> 0, (dataPtr >>> 0) + size);
      else t.cut = true;
    }
    return t;
  }

  // an accessor for the function onnxruntime-web calls by name: what it assigns there later (its asynchronous wrappers) is
  // wrapped too, and a wrapper beneath ours calling through is counted once
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

  function hex(buf) {
    var u = new Uint8Array(buf);
    var out = '';
    for (var i = 0; i < u.length; i++) out += (u[i] < 16 ? '0' : '') + numText(u[i], 16);
    return out;
  }

  // the encoders as they were before any script of the page ran (a page may replace them); the native one where the
  // browser has it: 8 MiB in 67 ms against 581 ms through btoa, measured in Chromium 156
  var toBase64 = typeof Uint8Array.prototype.toBase64 === 'function' ? call.bind(Uint8Array.prototype.toBase64) : null;
  var btoaBefore = globalThis.btoa;
  var fromCharCode = String.fromCharCode;
  var apply = Reflect.apply;
  var subarray = call.bind(Object.getPrototypeOf(Uint8Array.prototype).subarray);
  function base64(bytes) {
    if (toBase64) return toBase64(bytes);
    var s = '';
    for (var i = 0; i < bytes.length; i += 0x8000) s += apply(fromCharCode, null, subarray(bytes, i, i + 0x8000));
    return btoaBefore(s);
  }

  // the onnxruntime-web WebAssembly modules the realm instantiates from a URL (the engine's build, by its file name)
  function watchInstantiation(modules, note) {
    var streaming = WebAssembly.instantiateStreaming;
    if (typeof streaming !== 'function') return;
    WebAssembly.instantiateStreaming = function (source) {
      try {
        Promise.resolve(source).then(function (r) {
          if (r && /ort-wasm[^/]*\.wasm/.test(String(r.url)) && modules.length < 16) B.push(modules, B.strSlice(String(r.url), 0, 500));
        }, function () { /* the page sees its own error */ });
      } catch (e) { note('module', e); }
      return streaming.apply(this, arguments);
    };
  }

  // the threads this realm starts, as it asks for them (recorded, never changed): a dedicated worker is entered by the
  // driver where it can be (and said as not entered where not); a shared or service worker is never entered, and is said
  function watchThreads(started, limit, note) {
    function record(kind, url, type) {
      try {
        // the type as the browser reads it (a string of it: Chromium takes ['module'] for 'module'), never the page's value itself
        if (started.length < limit) B.push(started, { kind: kind, url: B.strSlice(String(url instanceof URL ? url.href : url), 0, 500),
          type: type === undefined || type === null ? 'classic' : B.strSlice(String(type), 0, 20) });
      } catch (e) { note('thread', e); }
    }
    B.forEach([['Worker', 'worker'], ['SharedWorker', 'shared-worker']], function (k) {
      var C = globalThis[k[0]];
      if (typeof C !== 'function') return;
      globalThis[k[0]] = new Proxy(C, { construct: function (t, args, nt) {
        record(k[1], args[0], args[1] && args[1].type);
        return Reflect.construct(t, args, nt);
      } });
    });
    var SW = globalThis.ServiceWorkerContainer;
    if (SW && typeof SW.prototype.register === 'function') {
      var register = SW.prototype.register;
      SW.prototype.register = function (url, opts) {
        record('service-worker', url, opts && opts.type);
        return register.apply(this, arguments);
      };
    }
  }

  // which runs keep their values: every run while the realm has kept less than limit bytes of them; past it, every
  // stride-th run of each session, the stride doubled and the values of the runs between let go, so a generation of any
  // length is judged on runs spread evenly over it, its first always. An input of at most small bytes (a step's ids,
  // mask, positions) is kept on every run within the limit, so a loop fed back on the GPU is still replayed step by step
  function sampler(limit, small) {
    var bytes = 0, stride = 1, kept = [];
    function forget(t) { if (t && t.values) { bytes -= t.byteLength || 0; t.values = null; } }
    function drop(run) {
      run.withValues = false;
      B.forEach(run.outputs, forget);
      B.forEach(run.inputs, function (t) { if (!(t.byteLength <= small)) forget(t); });
    }
    return {
      count: function (t) { if (t && (t.values || t.held)) bytes += t.byteLength || 0; return t; },
      keeps: function (index) {
        while (bytes >= limit && stride < 1024) {
          stride *= 2;
          kept = B.filter(kept, function (run) { if (run.index % stride === 0) return true; drop(run); return false; });
        }
        return bytes < limit && index % stride === 0;
      },
      small: function (t) { return t.byteLength !== null && t.byteLength <= small && bytes < limit; },
      kept: function (run) { if (run.withValues) B.push(kept, run); return run; },
    };
  }

  // each WebNN context the realm makes, with what it was made for (the options' deviceType and powerPreference, or a
  // GPUDevice), by context: onnxruntime-web runs a session on the context the app hands it, or on one it makes from the
  // app's deviceType, both made here, so the device is read from the context, not from the options alone
  function watchContexts(contexts, note) {
    var ML = globalThis.ML;
    var create = ML && ML.prototype && ML.prototype.createContext;
    if (typeof create !== 'function') return;
    ML.prototype.createContext = new Proxy(create, { apply: function (t, self, args) {
      var made = Reflect.apply(t, self, args);
      try {
        var o = args[0], gpu = typeof GPUDevice === 'function' && o instanceof GPUDevice, word = function (v) {
          return typeof v === 'string' ? B.strSlice(v, 0, 40) : null;
        };
        var c = gpu ? { gpuDevice: 'true' } : {};
        if (!gpu && o && word(o.deviceType)) c.deviceType = word(o.deviceType);
        if (!gpu && o && word(o.powerPreference)) c.powerPreference = word(o.powerPreference);
        Promise.resolve(made).then(function (ctx) { if (ctx && typeof ctx === 'object') contexts.set(ctx, c); }, function () { /* the page's */ });
      } catch (e) { note('context', e); }
      return made;
    } });
  }

  // each WebGPU adapter the realm gets, as it names itself (its info: vendor, architecture, device, description, whether
  // a fallback), into adapters (at most 8): a session on WebGPU ran on the last one the realm got before it was made
  function watchAdapters(adapters, note) {
    var G = globalThis.GPU;
    var request = G && G.prototype && G.prototype.requestAdapter;
    if (typeof request !== 'function') return;
    var word = function (v) { return typeof v === 'string' ? B.strSlice(v, 0, 100) : ''; };
    G.prototype.requestAdapter = new Proxy(request, { apply: function (t, self, args) {
      var got = Reflect.apply(t, self, args);
      Promise.resolve(got).then(function (a) {
        try {
          var i = a && a.info;
          if (!i || adapters.length >= 8) return;
          var fallback = typeof i.isFallbackAdapter === 'boolean' ? i.isFallbackAdapter : typeof a.isFallbackAdapter === 'boolean' ? a.isFallbackAdapter : null;
          B.push(adapters, { vendor: word(i.vendor), architecture: word(i.architecture), device: word(i.device), description: word(i.description), fallback: fallback });
        } catch (e) { note('adapter', e); }
      }, function () { /* the page's */ });
      return got;
    } });
  }

  // the onnxruntime-web releases the realm loads, as each says of itself: every build, imported or inlined in a bundle,
  // ends its set-up with Object.defineProperty(env.versions, 'web', { value: VERSION }) beside env.versions.common
  function watchVersions(versions, note) {
    var define = Object.defineProperty;
    Object.defineProperty = new Proxy(define, { apply: function (t, self, args) {
      try {
        var o = args[0];
        var v = args[2] && args[2].value;
        if (args[1] === 'web' && o && typeof o.common === 'string' && typeof v === 'string' && /^\d+\.\d+\.\d+[\w.+-]{0,60}$/.test(v)
            && versions.length < 8 && !B.filter(versions, function (x) { return x === v; }).length) B.push(versions, v);
      } catch (e) { note('version', e); }
      return Reflect.apply(t, self, args);
    } });
  }

  Object.defineProperty(globalThis, Symbol.for('accelbridge.observer.parts'), {
    configurable: true,
    value: Object.freeze({ B: Object.freeze(B), json: json, reportJson: reportJson, heap: heap, tensorOf: tensorOf, wrapName: wrapName, u32: u32, text: text, names: names, handles: words, dims: words, hex: hex, base64: base64,
      watchInstantiation: watchInstantiation, watchThreads: watchThreads, watchVersions: watchVersions, watchContexts: watchContexts, watchAdapters: watchAdapters, sampler: sampler }),
  });
})();
