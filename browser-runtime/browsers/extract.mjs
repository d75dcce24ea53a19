// Decompresses the Chromium headless shell shipped (brotli-compressed) in a version of @sparticuz/chromium into a cache
// folder and prints one JSON line: {"executablePath": ..., "dir": ..., "packageVersion": ...}.
// Usage: node extract.mjs [targetDir] [packageDir]
//   targetDir   default ~/.cache/accelbridge/chromium-shell-<package version>, where the Java side (ChromiumShell) looks
//   packageDir  the installed package's folder (any version: the pinned one here, or one fetched into Accelbridge's
//               cache); default this folder's node_modules/@sparticuz/chromium
// The package extracts into os.tmpdir(); pointing TMPDIR at our own versioned folder keeps the extraction out of the
// shared /tmp/chromium (another tool's copy) and makes it reusable across runs. The package's own executablePath() does
// the work, whichever of its layouts (CommonJS before 141, ES modules after) the version has.
import { mkdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const pkgDir = resolve(process.argv[3] ?? join(here, "node_modules/@sparticuz/chromium"));
const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
const target = resolve(process.argv[2] ?? join(homedir(), ".cache", "accelbridge", `chromium-shell-${pkg.version}`));
mkdirSync(target, { recursive: true });
process.env.TMPDIR = target; // read by os.tmpdir() at call time, before the package's module code runs
const dot = pkg.exports && (pkg.exports["."] ?? pkg.exports);
const pick = (e) => (typeof e === "string" ? e : e && (pick(e.import) ?? pick(e.default)));
const entry = pick(dot) ?? pkg.main ?? "index.js";
const mod = await import(pathToFileURL(join(pkgDir, entry)).href);
const chromium = mod.default?.executablePath ? mod.default : mod.default?.default ?? mod;
const executablePath = await chromium.executablePath();
process.stdout.write(JSON.stringify({ executablePath, dir: target, packageVersion: pkg.version }) + "\n");
