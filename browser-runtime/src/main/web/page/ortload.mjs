// The onnxruntime-web module this page runs, asked for as the page starts: index.html runs this module on its own before
// page.mjs, so the bundle (0.8 MB) arrives and compiles while the page's own modules still load (it came ~150 ms after
// them, a page's first job waiting on it). The pinned release, or the one this page's lane asked for (?ort=VERSION&
// ortEntry=BUNDLE), which the bridge serves from that release's own dist folder; the bundle is the lane's engine
// (?ortEntry=ort.webgpu.min.mjs). Only a version and a bundle path are taken: the bridge serves nothing else under /ort-web/.
import { DEFAULT_ENTRY } from './bundle.mjs';
import { installLedger } from './ledger.mjs';

const params = new URLSearchParams(location.search);
const version = /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,79}$/.test(params.get('ort') || '') ? params.get('ort') : null;
const entry = /^(esm\/)?[A-Za-z0-9._-]+\.m?js$/.test(params.get('ortEntry') || '') ? params.get('ortEntry') : DEFAULT_ENTRY;

// The folder the module and its WebAssembly files are served from.
export const ortBase = version ? `./ort-web/${version}/` : './ort/';

// the ledger first: every GPU buffer and WebAssembly memory onnxruntime-web makes passes through it
installLedger();

// { ort } once the module is loaded, or { error } when it failed: never rejects, so nothing waits unhandled meanwhile.
export const ortLoaded = import(ortBase + entry).then((ort) => ({ ort }), (error) => ({ error }));
