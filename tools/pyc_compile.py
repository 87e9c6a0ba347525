"""Precompile Python to bytecode at build time, so the browser never compiles it at start-up.

Runs INSIDE Pyodide (driven by tools/make_pyc_stdlib.mjs) so the bytecode's magic number is the
runtime's own. Two products, both deterministic (fixed timestamps, sorted names) so the service
worker's content hashes only change when their input does:

* the standard library as a sourceless `.pyc` zip (passed to loadPyodide as `stdLibURL`):
  compiling the source-only stdlib is most of Pyodide's cold-start time;
* the `calc` wheel with unchecked hash-based `.pyc` files beside its sources (`__pycache__/`),
  which removes the compile step from `import calc` and from each system's first request. The
  sources stay, for tracebacks and for CPython, which ignores another version's `.pyc`.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import marshal
import sys
import zipfile
from importlib._bootstrap_external import _code_to_hash_pyc  # the stdlib's own pyc writer

STDLIB_MOUNT = "/lib/python314.zip"  # where Pyodide mounts stdLibURL; used for code filenames
SITE_PACKAGES = "/lib/python3.14/site-packages"  # where Pyodide installs wheels
FIXED_DATE = (1980, 1, 1, 0, 0, 0)


def pyc_bytes(source: bytes, filename: str) -> bytes:
    """A sourceless, unchecked `.pyc`: magic, flags=0, mtime=0, size=0, marshalled code."""
    code = compile(source, filename, "exec", dont_inherit=True, optimize=0)
    return importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(code)


def _write(dst: zipfile.ZipFile, name: str, data: bytes) -> None:
    dst.writestr(zipfile.ZipInfo(name, FIXED_DATE), data, zipfile.ZIP_DEFLATED)


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
            _write(dst, name, data)
    return counts


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def compile_wheel(src_whl: str, dst_whl: str) -> dict[str, int]:
    """Copy a pure-Python wheel, adding `__pycache__/<mod>.<cache tag>.pyc` for every module."""
    tag = sys.implementation.cache_tag
    entries: list[tuple[str, bytes]] = []
    record_name = None
    with zipfile.ZipFile(src_whl) as src:
        for name in sorted(src.namelist()):
            data = src.read(name)
            if name.endswith(".dist-info/RECORD"):
                record_name = name
                continue
            entries.append((name, data))
            if name.endswith(".py"):
                code = compile(data, f"{SITE_PACKAGES}/{name}", "exec", dont_inherit=True, optimize=0)
                folder, _, file = name.rpartition("/")
                pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
                entries.append((f"{folder}/__pycache__/{file[:-3]}.{tag}.pyc", bytes(pyc)))
    if record_name is None:
        raise ValueError(f"{src_whl} has no RECORD")
    record = "\n".join(_record_line(n, d) for n, d in entries) + f"\n{record_name},,\n"
    with zipfile.ZipFile(dst_whl, "w", zipfile.ZIP_DEFLATED) as dst:
        for name, data in entries:
            _write(dst, name, data)
        _write(dst, record_name, record.encode())
    return {"compiled": sum(n.endswith(".pyc") for n, _ in entries), "files": len(entries) + 1}
