// Accelbridge's observer (observer.js, docs/observe.md): IO binding's inputs and outputs as onnxruntime-web binds them, and
// GPU tensors followed by identity, not by name, on both WebGPU engines (JSEP's jsep* calls and the native EP's webgpu*). An output kept on the GPU is the buffer onnxruntime-web
// hands the app (its id read back at _OrtGetTensorData, its GPUBuffer from getBuffer); where the app reads it back
// (getData), the bytes it gets are that output's; where it feeds it to a run, registerBuffer gives it the id the input
// tensor is made with, so the input is that output (session, run, name). Put in just before observer.js, which takes it
// from the one property it is handed over by and removes it.
(function () {
  'use strict';
  if (globalThis[Symbol.for('accelbridge.observer')]) return; // observed already: its hooks are in place
  var GET = ['jsepGetBuffer', 'webgpuGetBuffer'];

  // follows module M's IO bindings and GPU buffers through its calls, each wrapped by use.wrapName; use.keep(tensor, bytes)
  // keeps what the app read back of an output, use.tensors is the observer's tensors by handle. Returns bound(binding): its
  // inputs and outputs; origin(id, output): which output a GPU id holds; originOf(id): the output, or null
  function follow(M, use) {
    var wrapName = use.wrapName, after = use.after, note = use.note, text = use.text, tensors = use.tensors, B = use.B;
    // IO binding (outputs kept on the GPU, graph capture): a binding's inputs and outputs as onnxruntime-web binds them
    var bindings = new Map();
    function binding(h) { var b = bindings.get(h >>> 0); if (!b) { b = { inputs: [], outputs: [] }; bindings.set(h >>> 0, b); } return b; }
    wrapName(M, '_OrtBindInput', function (f, a, self) {
      try {
        var b = binding(a[0]); var n = text(M, a[1]);
        b.inputs = B.filter(b.inputs, function (x) { return x.name !== n; }); B.push(b.inputs, { name: n, handle: a[2] >>> 0 });
      } catch (e) { note('bind', e); }
      return f.apply(self, a);
    });
    wrapName(M, '_OrtBindOutput', function (f, a, self) {
      try {
        // (binding, name, tensor, location): a pre-allocated tensor keeps its own location; else 1 and 2 are the CPU's
        var b = binding(a[0]); var n = text(M, a[1]); var t = tensors.get(a[2] >>> 0);
        var cpu = a[2] >>> 0 ? !!(t && t.cpu) : (a[3] === 1 || a[3] === 2);
        b.outputs = B.filter(b.outputs, function (x) { return x.name !== n; }); B.push(b.outputs, { name: n, cpu: cpu });
      } catch (e) { note('bind', e); }
      return f.apply(self, a);
    });
    wrapName(M, '_OrtClearBoundOutputs', function (f, a, self) {
      var b = bindings.get(a[0] >>> 0); if (b) b.outputs = [];
      return f.apply(self, a);
    });
    wrapName(M, '_OrtReleaseBinding', function (f, a, self) {
      bindings.delete(a[0] >>> 0);
      return f.apply(self, a);
    });

    var origins = new Map(); // a GPU data id or handle -> the output it holds
    var buffers = new WeakMap(); // a GPUBuffer -> the output it holds
    function origin(id, o) { if (origins.size >= 4096) origins.clear(); origins.set(id >>> 0, o); }
    function link(buffer, id) {
      try { var o = buffer && typeof buffer === 'object' ? buffers.get(buffer) : null; if (o) origin(id, o); } catch (e) { note('gpu', e); }
    }
    function getBuffer(f, a, self) {
      var buffer = f.apply(self, a);
      try { var o = origins.get(a[0] >>> 0); if (o && buffer && typeof buffer === 'object') buffers.set(buffer, o); } catch (e) { note('gpu', e); }
      return buffer;
    }
    for (var i = 0; i < GET.length; i++) wrapName(M, GET[i], getBuffer);
    wrapName(M, 'jsepRegisterBuffer', function (f, a, self) { var id = f.apply(self, a); link(a[2], id); return id; });
    wrapName(M, 'webgpuRegisterBuffer', function (f, a, self) { var id = f.apply(self, a); link(a[0], id); return id; });
    // (gpuBuffer, size, type or session): the function the app's getData() calls; its bytes, when they come, are the output's
    function downloader(f, a, self) {
      var download = f.apply(self, a);
      var o = null;
      try { o = a[0] && typeof a[0] === 'object' ? buffers.get(a[0]) : null; } catch (e) { note('gpu', e); }
      if (!o || typeof download !== 'function') return download;
      return function () {
        return after(download.apply(this, arguments), function (data) { readBack(o, data); });
      };
    }
    // an output of a run recorded with its values (its owner's, which sampling may let go), as the app read it back: its values where it is the output's size
    function readBack(out, data) {
      var t = out.tensor;
      if (!out.owner.withValues || t.values || t.held || !data || typeof data.byteLength !== 'number' || data.byteLength !== t.byteLength) return;
      use.keep(t, data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    }
    wrapName(M, 'jsepCreateDownloader', downloader);
    wrapName(M, 'webgpuCreateDownloader', downloader);
    return { origin: origin, originOf: function (id) { return origins.get(id >>> 0) || null; },
      bound: function (h) { return bindings.get(h >>> 0) || { inputs: [], outputs: [] }; } };
  }

  Object.defineProperty(globalThis, Symbol.for('accelbridge.observer.gpu'), { configurable: true, value: follow });
})();
