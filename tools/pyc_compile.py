"""Precompile Python to bytecode at build time, so the browser never compiles it at start-up.

Runs INSIDE Pyodide (driven by tools/make_pyc_stdlib.mjs) so the bytecode's magic number is the
runtime's own. Two products, both deterministic (fixed timestamps, sorted names) so the service
worker's content hashes only change when their input does:

* the standard library as a sourceless `.pyc` zip (passed to loadPyodide as `stdLibURL`):
  compiling the source-only stdlib is most of Pyodide's cold-start time;
* a trimmed copy of that zip holding only what the calculators use (`stdlib_in_use`, measured
  by running every calculator inside Pyodide, then `trim`): 4.5 MB of bytecode shrinks to under
  a megabyte, and that is what a reader downloads;
* the `calc` wheel made sourceless: each module's `.py` replaced by its `.pyc` at the same
  place, which removes the compile step from `import calc` and from each system's first request
  and the sources' bytes from the download (a quarter of the wheel). Tracebacks keep file names
  and line numbers; the sources are in the repository and CPython runs them there.

All bytecode is compiled with `optimize=2` (docstrings and asserts removed, as `python -OO`):
measured on the trimmed standard library, 15 % fewer bytes on the wire; nothing in `calc` reads
a docstring at run time in the browser, and the standard library is tested under `-OO`.
"""

from __future__ import annotations

import ast
import base64
import hashlib
import importlib
import importlib.util
import json
import marshal
import os
import sys
import zipfile

STDLIB_MOUNT = "/lib/python314.zip"  # where Pyodide mounts stdLibURL; used for code filenames
SITE_PACKAGES = "/lib/python3.14/site-packages"  # where Pyodide installs wheels
FIXED_DATE = (1980, 1, 1, 0, 0, 0)
OPTIMIZE = 2  # as `python -OO`: no docstrings, no asserts (see the module docstring)


def pyc_bytes(source: bytes, filename: str) -> bytes:
    """A sourceless, unchecked `.pyc`: magic, flags=0, mtime=0, size=0, marshalled code."""
    code = compile(source, filename, "exec", dont_inherit=True, optimize=OPTIMIZE)
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
    """Copy a pure-Python wheel with every module's `.py` replaced by its sourceless `.pyc`."""
    entries: list[tuple[str, bytes]] = []
    record_name = None
    with zipfile.ZipFile(src_whl) as src:
        for name in sorted(src.namelist()):
            data = src.read(name)
            if name.endswith(".dist-info/RECORD"):
                record_name = name
                continue
            if name.endswith(".py"):
                name, data = name + "c", pyc_bytes(data, f"{SITE_PACKAGES}/{name}")
            entries.append((name, data))
    if record_name is None:
        raise ValueError(f"{src_whl} has no RECORD")
    record = "\n".join(_record_line(n, d) for n, d in entries) + f"\n{record_name},,\n"
    with zipfile.ZipFile(dst_whl, "w", zipfile.ZIP_DEFLATED) as dst:
        for name, data in entries:
            _write(dst, name, data)
        _write(dst, record_name, record.encode())
    return {"compiled": sum(n.endswith(".pyc") for n, _ in entries), "files": len(entries) + 1}


KEEP_ALWAYS = ("pyodide/", "_pyodide/")
"""Pyodide's own Python packages stay whole (about 130 kB): its JavaScript API imports parts of
them on demand (pyodide.ffi, pyodide.code, …), which no calculator run would reveal."""
SKIP_MODULES = {"calc.__main__", "calc.benchmark"}  # the command line and CPython timing: not in a browser


def _calc_modules(package_dir: str) -> list[str]:
    """Every module of the calc package (as installed), sub-packages included."""
    parent = os.path.dirname(package_dir)
    names = []
    for folder, dirs, files in os.walk(package_dir):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        rel = os.path.relpath(folder, parent).replace(os.sep, ".")
        for f in sorted(files):
            if f.endswith(".py"):
                names.append(rel if f == "__init__.py" else f"{rel}.{f[:-3]}")
    return [n for n in names if n not in SKIP_MODULES]


def _named_imports(path: str) -> set[str]:
    """Every absolute module an `import` statement in `path` names, function-level ones included
    (so a code path no request reaches still finds its modules)."""
    tree = ast.parse(open(path, "rb").read(), path)
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def _calc_requests() -> list[dict]:
    """What the site can ask: each calculator at its defaults and at its `stress` inputs, and one
    bad input (an integer past its maximum) per calculator, for the error path."""
    from calc.inputs import data

    out = []
    for system_id in data.system_ids():
        for name, decl in data.system(system_id).calculators.items():
            out.append({"system": system_id, "calculator": name, "inputs": {}})
            if decl.get("stress"):
                out.append({"system": system_id, "calculator": name, "inputs": decl["stress"]})
            bounded = [d for d in decl["inputs"] if d["type"] == "integer" and d.get("max") is not None]
            if bounded:
                out.append(
                    {"system": system_id, "calculator": name, "inputs": {bounded[0]["name"]: bounded[0]["max"] + 1}}
                )
    return out


def stdlib_in_use(mount: str = STDLIB_MOUNT) -> dict[str, list[str]]:
    """The stdlib zip members this interpreter has imported once calc has done all it can do:
    Pyodide's own start-up (already in sys.modules), every calc module, every module calc names
    in an import statement, and every calculator's requests (which import lazily, e.g.
    importlib.resources for the rules data). Returns {"members", "modules"}."""
    import calc
    import calc.browser

    package_dir = os.path.dirname(calc.__file__)
    for name in _calc_modules(package_dir):
        importlib.import_module(name)
    named: set[str] = set()
    for folder, _dirs, files in os.walk(package_dir):
        for f in files:
            if f.endswith(".py") and f[:-3] not in ("__main__", "benchmark"):
                named.update(_named_imports(os.path.join(folder, f)))
    for name in sorted(named):
        if name.split(".")[0] != "calc":
            importlib.import_module(name)
    for request in _calc_requests():
        json.loads(calc.browser.evaluate_json(json.dumps(request)))
    prefix = mount + "/"
    members, modules = set(), []
    for name, module in sorted(sys.modules.items()):
        path = getattr(module, "__file__", None) or ""
        if path.startswith(prefix):
            members.add(path[len(prefix) :])
            modules.append(name)
    return {"members": sorted(members), "modules": modules}


def trim(src_zip: str, dst_zip: str, members: list[str]) -> dict[str, int]:
    """Copy only `members` (plus KEEP_ALWAYS) of `src_zip` to `dst_zip`, deterministically."""
    kept = 0
    with zipfile.ZipFile(src_zip) as src, zipfile.ZipFile(dst_zip, "w", zipfile.ZIP_DEFLATED) as dst:
        names = set(src.namelist())
        # Frozen modules (abc, codecs, os, …) report their source path as __file__ though they
        # come from the binary: keep their bytecode anyway (small), never fail on them.
        wanted = {m + "c" if m.endswith(".py") and m not in names else m for m in members}
        missing = wanted - names
        if missing:
            raise ValueError(f"not in {src_zip}: {sorted(missing)[:5]}")
        for name in sorted(names):
            if name in wanted or name.startswith(KEEP_ALWAYS) and not name.endswith("/"):
                _write(dst, name, src.read(name))
                kept += 1
    return {"kept": kept, "of": len(names)}
