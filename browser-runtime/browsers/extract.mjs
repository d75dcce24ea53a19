// Decompresses the Chromium headless shell shipped (brotli-compressed) in @sparticuz/chromium into a cache
// folder and prints one JSON line: {"executablePath": ..., "dir": ..., "packageVersion": ...}.
// Usage: node extract.mjs [targetDir]   (default ~/.cache/accelbridge/chromium-shell-<package version>, where
// the Java side, ChromiumShell, looks for it)
// The package extracts into os.tmpdir(); pointing TMPDIR at our own versioned folder keeps the extraction
// out of the shared /tmp/chromium (another tool's copy) and makes it reusable across runs.
import { mkdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(readFileSync(join(here, "node_modules/@sparticuz/chromium/package.json"), "utf8"));
const target = resolve(process.argv[2] ?? join(homedir(), ".cache", "accelbridge", `chromium-shell-${pkg.version}`));
mkdirSync(target, { recursive: true });
process.env.TMPDIR = target; // read by os.tmpdir() at call time, before the package's module code runs
const { default: chromium } = await import("@sparticuz/chromium");
const executablePath = await chromium.executablePath();
process.stdout.write(JSON.stringify({ executablePath, dir: target, packageVersion: pkg.version }) + "\n");
