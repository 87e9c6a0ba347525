"""Turn Pyodide's source-only standard library zip into a sourceless `.pyc` zip.

Runs INSIDE Pyodide (driven by tools/make_pyc_stdlib.mjs) so the bytecode magic number is the
runtime's own. Booting from `.pyc` skips compiling the stdlib on every start, which is most of
Pyodide's cold-start time. The output is deterministic (fixed timestamps, sorted names) so the
service worker's content hash only changes when the runtime does.
"""

from __future__ import annotations

import importlib.util
import marshal
import zipfile

STDLIB_MOUNT = "/lib/python314.zip"  # where Pyodide mounts stdLibURL; used for code filenames
FIXED_DATE = (1980, 1, 1, 0, 0, 0)


def pyc_bytes(source: bytes, filename: str) -> bytes:
    """A sourceless, unchecked `.pyc`: magic, flags=0, mtime=0, size=0, marshalled code."""
    code = compile(source, filename, "exec", dont_inherit=True, optimize=0)
    return importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(code)


def convert(src_zip: str, dst_zip: str) -> dict[str, int]:
    """Write `dst_zip` with every `.py` of `src_zip` compiled; other files copied unchanged."""
    counts = {"compiled": 0, "copied": 0}
    with zipfile.ZipFile(src_zip) as src, zipfile.ZipFile(dst_zip, "w", zipfile.ZIP_DEFLATED) as dst:
        for name in sorted(src.namelist()):
            if name.endswith("/"):
                continue
            data = src.read(name)
            if name.endswith(".py"):
                name, data = name + "c", pyc_bytes(data, f"{STDLIB_MOUNT}/{name}")
                counts["compiled"] += 1
            else:
                counts["copied"] += 1
            dst.writestr(zipfile.ZipInfo(name, FIXED_DATE), data, zipfile.ZIP_DEFLATED)
    return counts
