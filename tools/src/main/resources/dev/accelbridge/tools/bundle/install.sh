#!/bin/sh
# Accelbridge offline bundle: checks every part against MANIFEST.sha256 before anything is joined or unpacked, unpacks
# the application, checks every unpacked file against its own list, and only then puts it in place.
#
#   ./install.sh [--expect SHA256] [DIR]
#
# --expect: the sha256 of MANIFEST.sha256 that 'accelbridge bundle' printed where the bundle was made (the manifest is
# what every part is checked against; this checks the manifest itself). DIR: where the application goes (default:
# ./accelbridge beside this script). Needs only sh, sha256sum, cat, tar and gzip. Exit 3 when anything does not match.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
expect=""
if [ "${1:-}" = "--expect" ]; then
  [ $# -ge 2 ] || { echo "accelbridge-bundle: --expect needs the manifest's sha256" >&2; exit 2; }
  expect="$2"; shift 2
fi
dest="${1:-$here/accelbridge}"
fail() { echo "accelbridge-bundle: $*" >&2; exit 3; }
cd "$here"
[ -f MANIFEST.sha256 ] || fail "MANIFEST.sha256 is missing: copy the whole bundle folder"
if [ -n "$expect" ]; then
  got=$(sha256sum MANIFEST.sha256 | cut -d' ' -f1)
  [ "$got" = "$expect" ] || fail "MANIFEST.sha256 is not the bundle's (sha256 $got, expected $expect): refusing"
fi
listed=""
while read -r sum file; do
  case "$file" in
    parts/*[!A-Za-z0-9._-]*|parts/) fail "MANIFEST.sha256 names '$file', which is not a part's name: refusing" ;;
    parts/*) ;;
    *) fail "MANIFEST.sha256 names '$file', outside parts/: refusing" ;;
  esac
  [ -f "$file" ] || fail "$file is missing (MANIFEST.sha256 lists it): copy it again"
  got=$(sha256sum "$file" | cut -d' ' -f1)
  [ "$got" = "$sum" ] || fail "$file does not match MANIFEST.sha256 (sha256 $got, expected $sum): its bytes were changed or cut; copy it again"
  listed="$listed $file"
done < MANIFEST.sha256
[ -n "$listed" ] || fail "MANIFEST.sha256 lists no part"
for f in parts/*; do
  case " $listed " in *" $f "*) ;; *) fail "$f is not in MANIFEST.sha256: refusing" ;; esac
done
tmp="$dest.partial.$$"
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086 # the parts' names were checked above: no spaces
cat $listed | tar -xzpf - -C "$tmp" --no-same-owner || fail "the joined parts are not the bundle's archive"
[ -f "$tmp/FILES.sha256" ] || fail "the archive holds no FILES.sha256"
(cd "$tmp" && sha256sum --check --strict --quiet FILES.sha256) || fail "an unpacked file does not match FILES.sha256: refusing"
rm -rf "$dest"
mv "$tmp" "$dest"
trap - EXIT
echo "installed in $dest; run: $dest/bin/accelbridge run --browser chromium-shell --suites vision,text --backends wasm,cpu"
