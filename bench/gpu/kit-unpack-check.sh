#!/usr/bin/env bash
# Tries bench/gpu/kit-unpack.sh on crafted archives and folders, here, in a minute: each hostile one refused (a symlink, a
# hard link, a setuid file, a path with '..', an absolute path, a file its list does not name, a file that does not match
# its list, a working folder the kit did not make, whose file stays), and a plain one unpacked. Exits 0 only when all hold.
# Usage: bench/gpu/kit-unpack-check.sh
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
t="$(mktemp -d /tmp/accelbridge-kit-check.XXXXXX)"
trap 'rm -rf "$t"' EXIT
failed=0
# expect WHAT refused|ok COMMAND...: runs COMMAND in a subshell with the helpers sourced, and says whether it did as expected
expect() {
  local what="$1" want="$2"; shift 2
  local out rc
  out=$( (source "$ROOT/bench/gpu/kit-unpack.sh"; "$@") 2>&1 ); rc=$?
  if { [ "$want" = refused ] && [ "$rc" -eq 3 ]; } || { [ "$want" = ok ] && [ "$rc" -eq 0 ]; }; then
    printf 'ok    %-40s %s\n' "$what" "$(echo "$out" | tail -1)"
  else
    printf 'WRONG %-40s (rc %s, wanted %s) %s\n' "$what" "$rc" "$want" "$out"; failed=1
  fi
}
mk() { rm -rf "$t/src"; mkdir -p "$t/src/d"; echo plain > "$t/src/d/f"; }
mk; (cd "$t/src" && tar cf "$t/plain.tar" d)
mk; ln -s /etc "$t/src/d/out"; (cd "$t/src" && tar cf "$t/symlink.tar" d)
mk; ln "$t/src/d/f" "$t/src/d/g"; (cd "$t/src" && tar cf "$t/hardlink.tar" d)
mk; chmod 4755 "$t/src/d/f"; (cd "$t/src" && tar cf "$t/setuid.tar" d)
mk; (cd "$t/src/d" && tar cf "$t/dotdot.tar" --transform 's|^f$|../escaped|' f)
mk; (cd "$t/src" && tar cf "$t/absolute.tar" -P --transform 's|^d/f$|/tmp/accelbridge-kit-absolute|' d/f)
expect "a plain archive" ok kit_untar "$t/plain.tar" "$t/u-plain"
expect "a symlink" refused kit_untar "$t/symlink.tar" "$t/u-symlink"
expect "a hard link" refused kit_untar "$t/hardlink.tar" "$t/u-hardlink"
expect "a setuid file" refused kit_untar "$t/setuid.tar" "$t/u-setuid"
expect "a path with '..'" refused kit_untar "$t/dotdot.tar" "$t/u-dotdot"
expect "an absolute path" refused kit_untar "$t/absolute.tar" "$t/u-absolute"
expect "unpacked over another's folder" refused kit_untar "$t/plain.tar" "$t/u-plain"
[ ! -e "$t/escaped" ] && [ ! -e /tmp/accelbridge-kit-absolute ] || { echo "WRONG something was written outside"; failed=1; }
(cd "$t/u-plain" && sha256sum d/f > LIST)
expect "every file listed and matching" ok kit_listed "$t/u-plain" LIST
echo extra > "$t/u-plain/d/unlisted"
expect "a file its list does not name" refused kit_listed "$t/u-plain" LIST
rm "$t/u-plain/d/unlisted"; echo changed > "$t/u-plain/d/f"
expect "a file that does not match its list" refused kit_listed "$t/u-plain" LIST
mkdir -p "$t/users"; echo mine > "$t/users/keep.txt"
expect "a working folder the kit did not make" refused kit_work "$t/users"
[ -f "$t/users/keep.txt" ] || { echo "WRONG the user's file was deleted"; failed=1; }
expect "a new working folder" ok kit_work "$t/new"
expect "the kit's own folder again" ok kit_work "$t/new"
exit "$failed"
