// Runs `npm ci` in the folder given as the first argument unless its node_modules already holds exactly what
// its package-lock.json pins. Maven calls this at generate-resources for every npm package of the build (the
// inference page, the Chromium headless shell, the report's chart library): a stamp with the lockfile's
// SHA-256 is written after a successful install, so an unchanged lockfile costs nothing and a changed one
// reinstalls from the registry.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";

const dir = resolve(process.argv[2] ?? ".");
const lock = join(dir, "package-lock.json");
if (!existsSync(lock)) {
  console.error(`[accelbridge] ${lock} is missing: the npm packages are pinned by their lockfile`);
  process.exit(1);
}
const stamp = join(dir, "node_modules", ".accelbridge-lock.sha256");
const sha = createHash("sha256").update(readFileSync(lock)).digest("hex");

if (existsSync(stamp) && readFileSync(stamp, "utf8").trim() === sha) {
  console.log(`[accelbridge] ${dir}/node_modules is up to date with package-lock.json`);
  process.exit(0);
}
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const r = spawnSync(npm, ["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"],
  { cwd: dir, stdio: "inherit" });
if (r.error) {
  console.error(`[accelbridge] could not run npm: ${r.error.message} (install Node.js 20+ with npm: ./setup.sh does)`);
  process.exit(1);
}
if (r.status !== 0) {
  process.exit(r.status ?? 1);
}
writeFileSync(stamp, sha + "\n");
