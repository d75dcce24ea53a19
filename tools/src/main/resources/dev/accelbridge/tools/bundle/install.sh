#!/bin/sh
# Accelbridge offline bundle: checks every part against MANIFEST.sha256 before anything is joined or unpacked, unpacks
# the application beside DIR, checks every unpacked file against its own list (no file it does not list, no link, no
# special file, no setuid or setgid bit), and only then puts it in place: DIR is new, empty, or an earlier install, which
# is renamed aside and removed only once the new one is in place. It never deletes what it did not install.
#
#   ./install.sh [--expect SHA256] [DIR]
#
# --expect: the sha256 of MANIFEST.sha256 that 'accelbridge bundle' printed where the bundle was made (the manifest is
# what every part is checked against; this checks the manifest itself). DIR: where the application goes (default:
# ./accelbridge beside this script; a relative DIR is taken from the folder you run this in). Needs only sh and the tools
# of $needs below. Exit 2 on a bad argument or a missing tool, 3 when anything does not match or DIR is not ours to replace.
set -eu
# every tool this script calls, checked first, so that a bare host hears which one it lacks (bench/offline builds its
# bare PATH from this line)
needs="basename cat comm cut dirname find gzip head ls mkdir mv rm sed sha256sum sort tar"
for t in $needs; do
  command -v "$t" > /dev/null 2>&1 || { echo "accelbridge-bundle: this host has no '$t' on PATH; install it (coreutils, findutils, sed, tar, gzip)" >&2; exit 2; }
done
usage() { echo "accelbridge-bundle: $*; usage: ./install.sh [--expect SHA256] [DIR]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
expect=""
expect_given=0
dest=""
while [ $# -gt 0 ]; do
  case "$1" in
    --expect)
      [ $# -ge 2 ] || usage "--expect needs the manifest's sha256"
      case "$2" in
        *[!0-9a-f]*|"") usage "--expect '$2' is not a sha256 (64 hex digits)" ;;
      esac
      [ "${#2}" -eq 64 ] || usage "--expect '$2' is not a sha256 (64 hex digits)"
      expect="$2"; expect_given=1; shift 2 ;;
    --*) usage "unknown option '$1'" ;;
    *)
      [ -z "$dest" ] || usage "one DIR only ('$dest' and '$1' given)"
      [ -n "$1" ] || usage "DIR is empty"
      dest="$1"; shift ;;
  esac
done
fail() { echo "accelbridge-bundle: $*" >&2; exit 3; }
[ -n "$dest" ] || dest="$here/accelbridge"
# a relative DIR is the caller's, not this script's folder; trailing slashes would put the staging folder inside DIR
case "$dest" in /*) ;; *) dest="$PWD/$dest" ;; esac
while [ "$dest" != "/" ] && [ "${dest%/}" != "$dest" ]; do dest="${dest%/}"; done
[ "$dest" != "/" ] || fail "DIR is /: give a folder of its own"
parent=$(dirname "$dest")
name=$(basename "$dest")
[ -d "$parent" ] || fail "$parent does not exist: make it first, or give another DIR"
marker=".accelbridge-install"
if [ -e "$dest" ] || [ -L "$dest" ]; then
  [ -d "$dest" ] && [ ! -L "$dest" ] || fail "$dest is not a folder: give a new, empty or earlier install's folder"
  if [ ! -f "$dest/$marker" ] && [ -n "$(ls -A "$dest")" ]; then
    fail "$dest holds files that are not an Accelbridge install: give a new or empty folder (nothing was changed)"
  fi
fi
cd "$here"
[ -f MANIFEST.sha256 ] || fail "MANIFEST.sha256 is missing: copy the whole bundle folder"
if [ "$expect_given" -eq 1 ]; then
  got=$(sha256sum MANIFEST.sha256 | cut -d' ' -f1)
  [ "$got" = "$expect" ] || fail "MANIFEST.sha256 is not the bundle's (sha256 $got, expected $expect): refusing"
else
  echo "accelbridge-bundle: no --expect given: the parts are checked against MANIFEST.sha256, but the manifest itself is not" >&2
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
# staged and kept beside DIR, never inside it; what an earlier install killed midway left there is this installer's own
tmp="$parent/.$name.partial.$$"
old="$parent/.$name.old.$$"
rm -rf "$parent/.$name.partial."* "$parent/.$name.old."*
mkdir "$tmp"
trap 'rm -rf "$tmp" "$tmp.listed"' EXIT
# shellcheck disable=SC2086 # the parts' names were checked above: no spaces
cat $listed | tar -xzpf - -C "$tmp" --no-same-owner || fail "the joined parts are not the bundle's archive"
[ -f "$tmp/FILES.sha256" ] || fail "the archive holds no FILES.sha256"
odd=$(find "$tmp" ! -type f ! -type d -print | head -1)
[ -z "$odd" ] || fail "the archive holds ${odd#"$tmp"/}, which is neither a file nor a folder: refusing"
special=$(find "$tmp" \( -perm -4000 -o -perm -2000 \) -print | head -1)
[ -z "$special" ] || fail "the archive holds ${special#"$tmp"/} with a setuid or setgid bit: refusing"
(cd "$tmp" && sha256sum --check --strict --quiet FILES.sha256) || fail "an unpacked file does not match FILES.sha256: refusing"
sed 's/^[0-9a-f]*  //' "$tmp/FILES.sha256" | LC_ALL=C sort > "$tmp.listed"
unlisted=$(cd "$tmp" && find . -type f ! -path ./FILES.sha256 -print | sed 's|^\./||' | LC_ALL=C sort | LC_ALL=C comm -23 - "$tmp.listed" | head -1)
rm -f "$tmp.listed"
[ -z "$unlisted" ] || fail "the archive holds $unlisted, which FILES.sha256 does not list: refusing"
: > "$tmp/$marker"
# the old install is renamed aside, the new one renamed in, and only then the old one removed
if [ -d "$dest" ]; then
  mv "$dest" "$old"
  if ! mv "$tmp" "$dest"; then
    mv "$old" "$dest"
    fail "could not put the new install in place: $dest is as it was"
  fi
  rm -rf "$old"
else
  mv "$tmp" "$dest"
fi
trap - EXIT
echo "installed in $dest; run: $dest/bin/accelbridge run --browser chromium-shell --suites vision,text --backends wasm,cpu"
