#!/usr/bin/env python3
"""Rewrites the bundle's jars for one host (x86-64 Linux): drops the native libraries built for other systems and
stores every entry uncompressed, so that the kit's one xz stream compresses across them (deflated entries do not
compress again). Signed jars stay valid: a signature covers entries' contents, not how they are stored.
Usage: slim.py LIB_DIR [DROP_REGEX]   (entries matching DROP_REGEX are left out too)"""
import os
import re
import sys
import zipfile

# native libraries of other systems, as the jars name them (DuckDB, ONNX Runtime, DJL's tokenizers, JNA-like layouts)
FOREIGN = re.compile(r"(_windows_|_macos_|_linux_arm64|_osx_|/(win|osx|darwin|macos|linux-aarch64|linux-arm64|"
                     r"linux-arm|aarch64|arm64|ppc64le|s390x|freebsd|android)[-/_a-z0-9]*/|\.dll$|\.dylib$|\.dSYM/)",
                     re.IGNORECASE)


def slim(path, drop):
    before = os.path.getsize(path)
    tmp = path + ".slim"
    dropped = 0
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(tmp, "w", zipfile.ZIP_STORED) as dst:
        for info in src.infolist():
            name = info.filename
            if (FOREIGN.search(name) and not name.endswith(".class")) or (drop and drop.search(name)):
                dropped += info.file_size
                continue
            out = zipfile.ZipInfo(name, info.date_time)
            out.external_attr = info.external_attr
            out.compress_type = zipfile.ZIP_STORED
            dst.writestr(out, src.read(info))
    os.replace(tmp, path)
    return before, os.path.getsize(path), dropped


def main():
    lib = sys.argv[1]
    drop = re.compile(sys.argv[2]) if len(sys.argv) > 2 else None
    for name in sorted(os.listdir(lib)):
        if name.endswith(".jar"):
            before, after, dropped = slim(os.path.join(lib, name), drop)
            if dropped:
                print("%-50s dropped %6.1f MB of other systems' natives and entries left out" % (name, dropped / 1e6))


if __name__ == "__main__":
    main()
