"""Build the whole site, calculators included, with one command: `python tools/build_site.py`.

Order matters:
1. export the rules data (`python -m macros.export` → calc/rules.json);
2. build the `calc` wheel (tools/wheel_backend.py; it carries calc/rules.json) and replace its
   sources by bytecode compiled by the pinned runtime (tools/make_pyc_stdlib.mjs --wheel), so
   `import calc` compiles nothing in the browser;
3. `mkdocs build --strict` (SITE_URL comes from the environment, read by mkdocs.yml);
   then each calculator's default answer goes into its pages (tools/prerender.py), so it shows
   at first paint, before Python, and each page's head lists its JavaScript modules
   (tools/module_preload.py), so they load at once and not one import level at a time;
4. copy the Pyodide runtime of the exactly pinned npm package to `assets/pyodide/<version>/`, and
   the browser libraries of VENDOR (each exactly pinned too) to `assets/js/vendor/`;
5. write the precompiled `.pyc` standard library (tools/make_pyc_stdlib.mjs, cached in build/,
   made before the wheel's bytecode, which reuses it), cut to the modules the calculators import
   (measured by running them all in Pyodide: `--trim`); the reader downloads only that cut;
6. copy the wheel and write a lock file holding its sha256 (`loadPyodide({lockFileURL,
   packages: ["calc"]})` then downloads it while Python boots); the stdlib and every wheel go as
   stored zips with an xz beside them, the wasm as xz and gzip (what the worker downloads);
7. generate `assets/js/boot/runtime.mjs` (the runtime URLs the worker needs), stamp every page with a
   Content-Security-Policy and the build id (tools/stamp_site.py), and write `sw.js` (the service
   worker: precache lists with each file's sha256, cache names from content hashes).
Standalone on purpose (not MkDocs hooks), so a move to another MkDocs-compatible builder keeps it.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import lzma
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import module_preload  # noqa: E402
import prerender  # noqa: E402  (tools/ is not a package)
import stamp_site  # noqa: E402
import wheel_backend  # noqa: E402

from calc import packages  # noqa: E402  (wheel_backend put the source tree on the path)

PYODIDE_NPM = ROOT / "node_modules" / "pyodide"
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
"""What the site needs of the npm package (python_stdlib.zip and the stock lock stay for the
benchmark's naive page; our worker uses the .pyc stdlib and our own lock)."""
WASM_GZ = "pyodide.asm.wasm.gz"
"""The runtime's wasm as the worker downloads it: gzip-compressed by the build (9.6 → 3.5 MB), so a
host that does not compress (or does not compress wasm) sends a third of the bytes; the worker
gunzips it as it arrives (DecompressionStream) and compiles the stream. The plain
pyodide.asm.wasm stays in the site for the benchmark's naive page and for a browser without
DecompressionStream (not precached)."""
WASM_XZ = "pyodide.asm.wasm.xz"
"""The wasm as the worker downloads it where it can load the xz decoder (XZ): 2.64 MB instead of
3.53 (gzip), decoded as it arrives; WASM_GZ is what it falls back to."""
BOOT_FILES = ("pyodide.mjs", "pyodide.asm.mjs", WASM_XZ)
PYC_STDLIB = "python_stdlib_pyc.zip"  # the trimmed .pyc stdlib (trimmed_stdlib)
XZ = ".xz"
"""The standard library and every wheel as the worker downloads them: their zip rewritten with
stored (uncompressed) entries, so that one xz stream over the whole file finds what the files
share (the stdlib 1.51 → 1.03 MB, the wheel 0.74 → 0.46 MB against per-entry deflate); the
worker decodes it as it arrives (xz-decompress, XZ_DECODER) and Pyodide gets the stored zip, whose
sha256 is the lock's. The stored zips stay in the site for a browser the decoder cannot load in
(not precached) and for the benchmark's naive page."""
XZ_DECODER = ("xz-decompress", "dist/package/xz-decompress.js", "xz-decompress.mjs")
"""The xz decoder the worker imports (package, its UMD file, the ES module written beside the boot
modules in assets/js/boot/: precached with them, since the first start offline needs it)."""
LOCK_NAME = "calc-lock.json"
SW_TEMPLATE = ROOT / "tools" / "sw_template.js"
SKIP_PRECACHE = (".map", ".gz")
VENDOR = {"qrcode-generator": ("dist/qrcode.mjs", "qrcode.mjs")}
"""Browser libraries copied from node_modules (package → its file, the name under
assets/js/vendor/). Each is imported dynamically by the one feature that uses it, never by a
page's static import graph: qrcode-generator draws the tracker's QR code of an encounter link
(docs/assets/js/fight/qr.mjs), so no other page downloads it."""
# Precached only on a later visit (sw_template.js, `later`), with the pages without a calculator
# and the memory snapshot: the search index, the search's word splitters, and the QR code (its
# library and the module that draws it, both imported dynamically by the tracker pages, themselves
# later: a calculator page's first visit downloads not one byte of them).
LATER_PRECACHE = (
    "search/",
    "assets/javascripts/lunr/",
    "assets/js/vendor/",
    "assets/js/fight/qr.mjs",
    "assets/wheels/calc_fight-",
)
"""…and the second wheel, `calc-fight` (calc.packages): the tracker's and the forecast's engines, which
no other calculator page downloads (a forecast page's worker fetches it at once on a first visit)."""


class BuildError(RuntimeError):
    """A build step failed; the message says which and why."""


def run(step: str, cmd: list[str], env: dict[str, str] | None = None) -> None:
    started = time.perf_counter()
    print(f"[build] {step}: {' '.join(cmd)}", flush=True)
    result = subprocess.run(cmd, cwd=ROOT, env=env)
    if result.returncode != 0:
        raise BuildError(f"{step} failed (exit {result.returncode})")
    print(f"[build] {step}: {time.perf_counter() - started:.1f} s", flush=True)


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def pinned_pyodide_version() -> str:
    """The version in node_modules, which must equal the exact pin in package.json."""
    pin = json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    installed_file = PYODIDE_NPM / "package.json"
    if not installed_file.exists():
        raise BuildError("node_modules/pyodide is missing: run `npm ci`")
    installed = json.loads(installed_file.read_text())["version"]
    if pin != installed:
        raise BuildError(f"package.json pins pyodide {pin!r} but node_modules has {installed!r}: run `npm ci`")
    return installed


def pinned_file(package: str, source: str) -> Path:
    """`source` inside node_modules/`package`, once the installed version is the one package.json
    pins exactly."""
    pins = json.loads((ROOT / "package.json").read_text())["dependencies"]
    folder = ROOT / "node_modules" / package
    if not (folder / "package.json").is_file():
        raise BuildError(f"node_modules/{package} is missing: run `npm ci`")
    installed = json.loads((folder / "package.json").read_text())["version"]
    if pins.get(package) != installed:
        pin = pins.get(package)
        raise BuildError(f"package.json pins {package} {pin!r} but node_modules has {installed!r}: run `npm ci`")
    return folder / source


def install_vendor(site: Path) -> None:
    """Copy VENDOR's files into `assets/js/vendor/`, each from the exactly pinned package, and
    write the xz decoder as an ES module (write_xz_decoder)."""
    out = site / "assets" / "js" / "vendor"
    out.mkdir(parents=True, exist_ok=True)
    for package, (source, name) in VENDOR.items():
        shutil.copy2(pinned_file(package, source), out / name)
    write_xz_decoder(site / "assets" / "js" / "boot" / XZ_DECODER[2])


def write_xz_decoder(dest: Path) -> None:
    """The decoder's UMD bundle wrapped as an ES module (the worker is a module worker): it sees a
    CommonJS `module` and an empty `require` (its one import, Node's stream/web, is only a fallback
    for an old Node without a global ReadableStream) and its export is re-exported."""
    package, source, _ = XZ_DECODER
    umd = pinned_file(package, source).read_text(encoding="utf-8")
    dest.write_text(
        f"// {package} {json.loads(pinned_file(package, 'package.json').read_text())['version']}"
        " (MIT; xz-embedded: public domain), wrapped as an ES module by tools/build_site.py.\n"
        "const module = { exports: {} };\nconst exports = module.exports;\nconst require = () => ({});\n"
        f"{umd}\nexport const {{ XzReadableStream }} = module.exports;\n",
        encoding="utf-8",
    )


def build_wheels(out_dir: Path, stdlib: Path | None = None) -> list[Path]:
    """Both browser packages' wheels (`calc.packages.PACKAGES`, the base first)."""
    return [build_wheel(out_dir, stdlib, package) for package in packages.PACKAGES]


def build_wheel(out_dir: Path, stdlib: Path | None = None, package: str = packages.BASE) -> Path:
    """One package's wheel (`calc` or `calc-fight`) with bytecode for the pinned runtime
    (tools/pyc_compile.py)."""
    plain_dir = out_dir / "plain"
    pattern = f"{package.replace('-', '_')}-*.whl"
    for old in [*out_dir.glob(pattern), *plain_dir.glob(pattern)]:
        old.unlink()
    name = wheel_backend.build_wheel(str(plain_dir), {"package": package})
    wheel = out_dir / name
    cmd = ["node", "tools/make_pyc_stdlib.mjs", str(PYODIDE_NPM), "--wheel", str(plain_dir / name), str(wheel)]
    run("wheel bytecode", cmd + ([str(stdlib)] if stdlib else []))
    print(f"[build] wheel: {name}", flush=True)
    return wheel


def pyc_stdlib(version: str) -> Path:
    """The .pyc stdlib zip, rebuilt only when the runtime or the compiler script changes."""
    key = hashlib.sha256(
        (PYODIDE_NPM / "python_stdlib.zip").read_bytes()
        + (PYODIDE_NPM / "pyodide.asm.wasm").read_bytes()[: 1 << 20]
        + (ROOT / "tools" / "pyc_compile.py").read_bytes()
        + version.encode()
    ).hexdigest()[:16]
    cached = ROOT / "build" / "pyc-stdlib" / f"{key}.zip"
    if not cached.exists():
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(".tmp")
        run("pyc stdlib", ["node", "tools/make_pyc_stdlib.mjs", str(PYODIDE_NPM), str(tmp)])
        tmp.replace(cached)
    return cached


def source_wheel(wheel: Path) -> Path:
    """The wheel with its sources that `build_wheel` compiled into `wheel` (sourceless)."""
    return wheel.parent / "plain" / wheel.name


def trimmed_stdlib(full: Path, wheels: list[Path]) -> Path:
    """The .pyc stdlib cut to the modules the calculators import, measured by running every
    calculator inside the pinned Pyodide (tools/make_pyc_stdlib.mjs --trim): what readers
    download. Rebuilt when the full zip, the wheel or the compiler script changes. The
    measurement installs the wheels (both packages) with their sources: it reads their import
    statements."""
    wheel, *more = [source_wheel(w) for w in wheels]
    key = hashlib.sha256(
        full.read_bytes()
        + b"".join(w.read_bytes() for w in [wheel, *more])
        + (ROOT / "tools" / "pyc_compile.py").read_bytes()
    ).hexdigest()[:16]
    cached = ROOT / "build" / "pyc-stdlib" / f"calc-{key}.zip"
    if not cached.exists():
        for old in cached.parent.glob("calc-*.zip*"):  # one per wheel: keep only the newest
            old.unlink()
        tmp = cached.with_suffix(".tmp")
        run(
            "trimmed stdlib",
            [
                "node",
                "tools/make_pyc_stdlib.mjs",
                str(PYODIDE_NPM),
                "--trim",
                str(full),
                str(wheel),
                str(tmp),
                *map(str, more),
            ],
        )
        tmp.with_name(tmp.name + ".json").replace(cached.with_name(cached.name + ".json"))
        tmp.replace(cached)
    return cached


def write_gzip(source: Path, dest: Path) -> None:
    """`dest`: `source` gzip-compressed at the best level, with no name or time in its header, so
    the same input gives the same bytes (its sha256 is in sw.js and names a cache)."""
    with source.open("rb") as raw, dest.open("wb") as out:
        with gzip.GzipFile(filename="", mode="wb", fileobj=out, compresslevel=9, mtime=0) as gz:
            shutil.copyfileobj(raw, gz, 1 << 20)


def write_stored_xz(source: Path, dest: Path) -> None:
    """`dest`: the zip `source` with every entry stored (same names, order and dates), and beside
    it `dest` + XZ, that zip compressed by `write_xz`."""
    with zipfile.ZipFile(source) as zin:  # read whole first: `source` may be `dest` (a redeploy)
        entries = [(info, zin.read(info)) for info in zin.infolist()]
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_STORED) as zout:
        for info, data in entries:
            stored = zipfile.ZipInfo(info.filename, info.date_time)
            stored.external_attr = info.external_attr
            zout.writestr(stored, data, compress_type=zipfile.ZIP_STORED)
    write_xz(dest, dest.with_name(dest.name + XZ))


def write_xz(source: Path, dest: Path) -> None:
    """`dest`: `source` xz-compressed (LZMA2 at the best level, a dictionary as large as the file,
    CRC32: what xz-embedded checks). Same input, same bytes (their sha256 are in sw.js)."""
    data = source.read_bytes()
    dict_size = min(1 << max(20, (len(data) - 1).bit_length()), 64 << 20)
    lzma2 = {"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME, "dict_size": dict_size}
    packed = lzma.compress(data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32, filters=[lzma2])
    dest.write_bytes(packed)


def write_lock(wheels: list[Path], dest: Path) -> None:
    """A Pyodide lock file holding the two packages, `calc` and `calc-fight` (`calc.packages`), each
    with its wheel's sha256. `calc-fight` depends on nothing: after a memory snapshot's restore
    `calc` is in memory but not among the loaded packages."""
    stock = json.loads((PYODIDE_NPM / "pyodide-lock.json").read_text())
    lock = {"info": stock["info"], "packages": {}}
    for package, wheel in zip(packages.PACKAGES, wheels, strict=True):
        lock["packages"][package] = {
            "name": package,
            "version": wheel.name.split("-")[1],
            "file_name": wheel.name,
            "install_dir": "site",
            "sha256": sha256_file(wheel),
            "package_type": "package",
            "imports": ["calc"] if package == packages.BASE else [],
            "depends": [],
            "unvendored_tests": False,
        }
    dest.write_text(json.dumps(lock, indent=1) + "\n")


def write_runtime_module(
    site: Path, version: str, wheel_name: str, snapshot: dict | None = None, more: dict[str, str] | None = None
) -> None:
    """assets/js/boot/runtime.mjs: the URLs the worker loads, relative to assets/js/boot/."""
    pyodide_dir = f"../../pyodide/{version}/"
    runtime_dir = site / "assets" / "pyodide" / version
    wheels = site / "assets" / "wheels"
    # What a first visit downloads: the two runtime modules Pyodide imports, then the files it
    # fetches (the page's progress bar counts those bytes as they arrive and adds the modules').
    modules = sum((runtime_dir / f).stat().st_size for f in BOOT_FILES if f.endswith(".mjs"))
    fetched = sum((runtime_dir / f).stat().st_size for f in BOOT_FILES if not f.endswith(".mjs"))
    fetched += (runtime_dir / (PYC_STDLIB + XZ)).stat().st_size
    fetched += (site / "assets" / "wheels" / (wheel_name + XZ)).stat().st_size
    fetched += (site / "assets" / "wheels" / LOCK_NAME).stat().st_size
    download = modules + fetched
    runtime = {
        "version": version,
        "pyodideDir": pyodide_dir,
        "stdlib": pyodide_dir + PYC_STDLIB,
        "wasm": pyodide_dir + WASM_XZ,
        "wasmGz": pyodide_dir + WASM_GZ,
        "lock": f"../../wheels/{LOCK_NAME}",
        "wheel": f"../../wheels/{wheel_name}",
        # The files Pyodide asks for by these plain names come xz-compressed (write_stored_xz).
        "xz": {
            pyodide_dir + "pyodide.asm.wasm": pyodide_dir + WASM_XZ,
            pyodide_dir + PYC_STDLIB: pyodide_dir + PYC_STDLIB + XZ,
            **{f"../../wheels/{w.stem}": f"../../wheels/{w.name}" for w in sorted(wheels.glob("*.whl" + XZ))},
        },
        "xzDecoder": "./" + XZ_DECODER[2],
        # The other packages (calc.packages): name → wheel URL, loaded by the worker when needed.
        "packages": {name: f"../../wheels/{file}" for name, file in (more or {}).items()},
        "downloadText": f"{download / 1e6:.1f} MB, once",
        "downloadBytes": download,
        "moduleBytes": modules,
        "snapshot": snapshot,
        "build": None,  # the build id, written by stamp_site.stamp once every file is in place
    }
    (site / "assets" / "js" / "boot" / "runtime.mjs").write_text(
        "// Generated by tools/build_site.py from node_modules/pyodide (pinned in package.json).\n"
        f"export const RUNTIME = {json.dumps(runtime, indent=2)};\n"
    )
    write_worker_entry(site, runtime)


EARLY_LINE = re.compile(r"^const EARLY = (?:null|\{.*?\});", re.M)
"""The entry's line the URLs go into: `null` in the source, the URLs once built (a rebuild rewrites it)."""


def write_worker_entry(site: Path, runtime: dict) -> None:
    """Write into the worker's entry (assets/js/boot/pyodide-worker.mjs, no static import) the URLs
    it requests before importing anything: the wasm and the standard library as the worker
    downloads them (xz; with their sizes: the next starts when 90 % of the previous has come),
    then Pyodide's two modules and the xz decoder. Taken from `runtime`, so
    runtime.mjs stays the one place they are decided."""
    entry = site / "assets" / "js" / "boot" / "pyodide-worker.mjs"
    text = entry.read_text(encoding="utf-8")
    if not EARLY_LINE.search(text):
        raise BuildError(f"{entry}: no line 'const EARLY = null;' to write the early requests into")
    plain = [runtime["pyodideDir"] + "pyodide.asm.wasm", runtime["stdlib"]]  # the wasm first: the longest
    files = {name: runtime["xz"][name] for name in plain}
    early = {
        "files": files,
        "bytes": {packed: (entry.parent / packed).stat().st_size for packed in files.values()},
        "modules": [runtime["pyodideDir"] + m for m in ("pyodide.mjs", "pyodide.asm.mjs")] + [runtime["xzDecoder"]],
    }
    entry.write_text(EARLY_LINE.sub(lambda _: f"const EARLY = {json.dumps(early)};", text, count=1), encoding="utf-8")


def page_url(rel: str) -> str:
    """The URL a page is fetched under (`use_directory_urls`): `a/b/index.html` → `a/b/`."""
    if rel == "index.html":
        return "./"
    if rel.endswith("/index.html"):
        return rel[: -len("index.html")]
    return rel


def calculator_page_files(site: Path) -> set[str]:
    """The calculator pages' files (`countup/calculators/hit/index.html`), from calc/rules.json:
    with the runtime, what the calculators need to work offline (the first-visit precache)."""
    exported = json.loads((ROOT / "calc" / "rules.json").read_text(encoding="utf-8"))
    urls = [c["url"] for s in exported["systems"].values() for c in s["calculators"].values()]
    files = {u + "index.html" for u in urls}
    missing = sorted(f for f in files if not (site / f).is_file())
    if missing:
        raise SystemExit(f"[build] calculator pages missing from the site: {missing}")
    return files


def write_service_worker(site: Path, version: str, build: str, snapshot_meta: dict | None = None) -> None:
    """sw.js: three precaches, each named by a hash of its content, so a new build re-downloads
    only what changed: the runtime (changes with the pinned version), the memory snapshot (with
    the wheel) and the site (pages, JS, CSS, wheel, lock, data). Every file carries its sha256:
    the service worker stores nothing else (a stale HTTP cache or a half-deployed server cannot
    slip an old file into a new build). The snapshot also accepts the sha256 of its gunzipped
    bytes (a host may serve the gzip file with `Content-Encoding: gzip`)."""
    runtime_dir = site / "assets" / "pyodide" / version
    runtime = [runtime_dir / f for f in (*BOOT_FILES, PYC_STDLIB + XZ)]
    snapshot_files = sorted((site / "assets" / "snapshot").glob("*.bin"))
    calculator_pages = calculator_page_files(site)
    others: list[Path] = []
    rest: list[Path] = []
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site).as_posix()
        if not path.is_file() or rel == "sw.js" or rel.endswith(SKIP_PRECACHE):
            continue
        if path.with_name(path.name + XZ).is_file():
            continue  # the worker fetches its .xz (write_stored_xz)
        if rel.startswith(("assets/pyodide/", "assets/snapshot/", "assets/javascripts/lunr/min/")):
            continue
        later = rel.endswith((".html", ".xml")) and rel not in calculator_pages
        (rest if later or rel.startswith(LATER_PRECACHE) else others).append(path)

    def digest(paths: list[Path]) -> str:
        h = hashlib.sha256(SW_TEMPLATE.read_bytes())
        for p in paths:
            h.update(p.relative_to(site).as_posix().encode() + b"\0" + hashlib.sha256(p.read_bytes()).digest())
        return h.hexdigest()[:12]

    def urls(paths: list[Path]) -> list[list[str]]:
        entries = []
        for p in paths:
            entry = [page_url(p.relative_to(site).as_posix()), sha256_file(p)]
            if snapshot_meta and p.name == Path(snapshot_meta["url"]).name:
                entry.append(snapshot_meta["rawSha256"])
            entries.append(entry)
        return entries

    caches = [
        {"name": f"cc-runtime-{version}-{digest(runtime)}", "files": urls(runtime)},
        {"name": f"cc-site-{digest(others)}", "files": urls(others)},
        *(
            [{"name": f"cc-snapshot-{digest(snapshot_files)}", "files": urls(snapshot_files), "later": True}]
            if snapshot_files
            else []
        ),
        {"name": f"cc-pages-{digest(rest)}", "files": urls(rest), "later": True},
    ]
    text = SW_TEMPLATE.read_text().replace("__CACHES__", json.dumps(caches, indent=1))
    text = text.replace("__BUILD__", json.dumps(build))
    (site / "sw.js").write_text(text)
    sizes = ", ".join(f"{c['name']}: {len(c['files'])} files{' (later)' if c.get('later') else ''}" for c in caches)
    print(f"[build] sw.js: {sizes}", flush=True)


def build(site: Path) -> None:
    started = time.perf_counter()
    version = pinned_pyodide_version()
    run("export data", [sys.executable, "-m", "macros.export"])
    wheels = build_wheels(ROOT / "build" / "wheels", pyc_stdlib(version))
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    run("mkdocs", [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)], env=env)
    blocks = prerender.prerender_site(site)
    print(f"[build] default answers prerendered into {blocks} calculator blocks", flush=True)
    preloaded = module_preload.add_module_preloads(site)
    print(f"[build] module preloads written into {preloaded} pages", flush=True)
    install_vendor(site)
    install_runtime(site, wheels, version, trimmed_stdlib(pyc_stdlib(version), wheels))
    print(f"[build] site ready in {site} ({time.perf_counter() - started:.1f} s)", flush=True)


def install_runtime(site: Path, wheels: list[Path], version: str, stdlib: Path) -> None:
    """Everything the calculators need in a built site: runtime, the trimmed .pyc stdlib, wheels
    (`calc` first, then `calc-fight`), lock, sw.js."""
    wheel = wheels[0]
    runtime_dir = site / "assets" / "pyodide" / version
    runtime_dir.mkdir(parents=True, exist_ok=True)
    for name in RUNTIME_FILES:
        shutil.copy2(PYODIDE_NPM / name, runtime_dir / name)
    write_gzip(runtime_dir / "pyodide.asm.wasm", runtime_dir / WASM_GZ)
    write_xz(runtime_dir / "pyodide.asm.wasm", runtime_dir / WASM_XZ)
    write_stored_xz(stdlib, runtime_dir / PYC_STDLIB)

    wheel_files, wheels = wheels, site / "assets" / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    for old in [*wheels.glob("calc-*.whl*"), *wheels.glob("calc_*.whl*")]:  # a rebuild keeps no other wheel
        old.unlink()
    for each in wheel_files:  # stored zips with their xz (the locks' sha256 are the stored zips')
        write_stored_xz(each, wheels / each.name)
    write_lock([wheels / each.name for each in wheel_files], wheels / LOCK_NAME)
    snapshot = memory_snapshot(site, runtime_dir / PYC_STDLIB, wheels / wheel.name)
    more = {name: w.name for name, w in zip(packages.PACKAGES[1:], wheel_files[1:], strict=True)}
    write_runtime_module(site, version, wheel.name, snapshot, more)
    build = stamp_site.stamp(site)
    write_service_worker(site, version, build, snapshot)


def memory_snapshot(site: Path, stdlib: Path, wheel: Path) -> dict | None:
    """Optional: a build-time memory snapshot with calc imported (tools/make_snapshot.mjs). The
    worker restores it from the service worker's cache, or downloads it on a first visit over a
    fast link (pyodide-worker.mjs `link`), and falls back to the normal
    start on any problem (docs/assets/js/boot/snapshot-loader.mjs). CC_SNAPSHOT=0 leaves it out; a
    failure to make one is a warning, never a broken site."""
    out_dir = site / "assets" / "snapshot"
    shutil.rmtree(out_dir, ignore_errors=True)  # no snapshot of another build stays behind
    if os.environ.get("CC_SNAPSHOT", "1") == "0":
        print("[build] memory snapshot: skipped (CC_SNAPSHOT=0)", flush=True)
        return None
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = out_dir / "calc-snapshot.bin"
    try:
        run("memory snapshot", ["node", "tools/make_snapshot.mjs", str(PYODIDE_NPM), str(stdlib), str(wheel), str(tmp)])
    except BuildError as err:
        print(f"[build] warning: no memory snapshot ({err}); the calculators start normally", flush=True)
        shutil.rmtree(out_dir, ignore_errors=True)
        return None
    meta_file = tmp.with_name(tmp.name + ".json")
    meta = json.loads(meta_file.read_text())
    meta_file.unlink()
    final = tmp.with_name(f"calc-snapshot-{meta['sha256'][:12]}.bin")  # content-named: cache-safe
    tmp.replace(final)
    return {
        "url": f"../../snapshot/{final.name}",  # relative to assets/js/boot/ (runtime.mjs)
        "sha256": meta["sha256"],
        "rawSha256": meta["rawSha256"],
        "probe": meta["probe"],
    }


def build_runtime_artifacts() -> Path:
    """Just the wheel and the .pyc stdlibs, for the Node tests: paths in build/artifacts.json
    (`pyc_stdlib` is the trimmed zip the site ships, `full_pyc_stdlib` the whole one)."""
    version = pinned_pyodide_version()
    full = pyc_stdlib(version)
    wheel, fight_wheel = build_wheels(ROOT / "build" / "wheels", full)
    manifest = ROOT / "build" / "artifacts.json"
    artifacts = {
        "pyodide": version,
        "wheel": str(wheel),
        "source_wheel": str(source_wheel(wheel)),
        "fight_wheel": str(fight_wheel),  # calc-fight (calc.packages): the tracker's and forecast's engines
        "fight_source_wheel": str(source_wheel(fight_wheel)),
        "pyc_stdlib": str(trimmed_stdlib(full, [wheel, fight_wheel])),
        "full_pyc_stdlib": str(full),
    }
    manifest.write_text(json.dumps(artifacts, indent=1) + "\n")
    print(f"[build] wrote {manifest.relative_to(ROOT)}", flush=True)
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site-dir", type=Path, default=ROOT / "site", help="output folder (default: site/)")
    parser.add_argument(
        "--wheel-only", action="store_true", help="only the wheel and .pyc stdlib (build/artifacts.json), no site"
    )
    args = parser.parse_args(argv)
    try:
        if args.wheel_only:
            build_runtime_artifacts()
        else:
            build(args.site_dir.resolve())
    except BuildError as err:
        print(f"[build] error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
