// Runs `npm ci` here unless node_modules already holds exactly what package-lock.json pins.
// Maven calls this in generate-resources (execution npm-ci-browsers); a stamp with the lockfile's SHA-256 is
// written after a successful install, so an unchanged lockfile costs nothing and a changed one reinstalls.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const lock = join(here, "package-lock.json");
const stamp = join(here, "node_modules", ".accelbridge-lock.sha256");
const marker = join(here, "node_modules", "@sparticuz", "chromium", "package.json");
const sha = createHash("sha256").update(readFileSync(lock)).digest("hex");

if (existsSync(marker) && existsSync(stamp) && readFileSync(stamp, "utf8").trim() === sha) {
  console.log(`[accelbridge] ${here}/node_modules is up to date with package-lock.json`);
  process.exit(0);
}
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const r = spawnSync(npm, ["ci", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: here, stdio: "inherit" });
if (r.error) {
  console.error(`[accelbridge] could not run npm: ${r.error.message} (install Node.js 20+ with npm)`);
  process.exit(1);
}
if (r.status !== 0) {
  process.exit(r.status ?? 1);
}
writeFileSync(stamp, sha + "\n");
