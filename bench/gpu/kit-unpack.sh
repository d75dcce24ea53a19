# The GPU kit's careful unpacking, sourced by run-kit.sh (and tried alone: bench/gpu/kit-unpack-check.sh). Everything it
# reads came over the wire: an archive is listed before it is unpacked, and refused whole if any entry is not a plain
# file or folder (a link, a device, a fifo), names a path outside its folder (absolute, or with a '..' step) or carries
# setuid, setgid or sticky bits; it is unpacked into a folder of its own, never over another archive's files; and a
# folder's files must be exactly those its list names, each with its sha256.
# Found when tried with crafted parts: a symlink in the application archive let the shell's archive, unpacked next into
# the same folder, write outside it before FILES.sha256 was checked; an unlisted setuid file was kept.

# kit_refuse MESSAGE: says why, and stops the kit (exit 3).
kit_refuse() { printf '[gpu-kit] FAIL: %s\n' "$*" >&2; exit 3; }

# kit_untar TAR DEST: unpacks the tar file TAR into DEST, which must not exist yet, after listing it: only regular files
# and folders, relative paths without '..', no setuid/setgid/sticky bits; owners and modes' special bits not restored.
kit_untar() {
  local tar="$1" dest="$2" bad
  [ -e "$dest" ] && kit_refuse "$dest exists: each archive is unpacked into a folder of its own"
  # the entries' types and modes (the first column of the long listing), then their names (the short one, one a line)
  bad=$(LC_ALL=C tar --list --verbose -f "$tar" | awk '
    { type = substr($1, 1, 1) }
    type != "-" && type != "d" { print "not a plain file or folder: " $0; next }
    $1 ~ /[sStT]/ { print "setuid, setgid or sticky: " $0 }' | head -3)
  bad="${bad:+$bad; }$(LC_ALL=C tar --list -P -f "$tar" | awk '/^\// || /(^|\/)\.\.(\/|$)/ { print "a path outside its folder: " $0 }' | head -3)"
  [ -z "$bad" ] || kit_refuse "$(basename "$tar") holds what the kit never unpacks: $bad"
  mkdir -p "$dest"
  tar --extract --no-same-owner --no-same-permissions --no-overwrite-dir -f "$tar" -C "$dest" \
    || kit_refuse "$(basename "$tar") could not be unpacked"
}

# kit_listed DIR LIST: the files under DIR are exactly those LIST (sha256sum's format, paths relative to DIR) names, each
# matching its sha256; LIST itself is left out of the comparison.
kit_listed() {
  local dir="$1" list="$2" extra
  (cd "$dir" && sha256sum -c --quiet "$list") > /dev/null 2>&1 || kit_refuse "a file under $dir does not match $list"
  extra=$(cd "$dir" && find . \( -type f -o -type l \) ! -path "./$list" | sed 's|^\./||' | LC_ALL=C sort \
    | LC_ALL=C comm -23 - <(sed 's/^[0-9a-f]*  //' "$list" | LC_ALL=C sort) | head -3)
  [ -z "$extra" ] || kit_refuse "files under $dir that $list does not name: $extra"
}

# kit_work DIR: the kit's own working folder: made here, or one an earlier run of the kit made (its marker inside), never
# a folder the kit did not make (found when tried: the run began with rm -rf "$KIT_WORK", and a user's file there went).
kit_work() {
  local w="$1"
  if [ -e "$w" ] && [ -n "$(ls -A "$w" 2>/dev/null)" ]; then
    [ -f "$w/.accelbridge-kit" ] || kit_refuse "KIT_WORK $w is not empty and was not made by the kit: give an empty or new folder"
    rm -rf "${w:?}"/{kit,app,shell,sys,home,logs,reports,parts}  # what a run of the kit makes there, nothing else
  fi
  mkdir -p "$w" && touch "$w/.accelbridge-kit"
}
