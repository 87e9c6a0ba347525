"""tools/build_site.py's runtime files as the worker downloads them: a zip rewritten with stored
entries (same names, order, dates and bytes) and its xz, which decodes to that stored zip under a
check xz-embedded verifies (CRC32), the same bytes on every build, also when the zip is rewritten
in place (a redeploy); the xz decoder wrapped as an ES module decodes what the build wrote; the
worker's entry gets runtime.mjs's URLs of what it requests first."""

from __future__ import annotations

import base64
import json
import lzma
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import build_site  # noqa: E402

FILES = {"calc/__init__.pyc": b"\x00bytecode " * 500, "calc/rules.json": b'{"a": 1}' * 300, "calc/empty": b""}


def deflated_zip(path: Path) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in FILES.items():
            z.writestr(zipfile.ZipInfo(name, (2020, 1, 2, 3, 4, 6)), data, compress_type=zipfile.ZIP_DEFLATED)
    return path


def test_stored_zip_keeps_every_entry_and_its_xz_decodes_to_it(tmp_path):
    source = deflated_zip(tmp_path / "in.whl")
    dest = tmp_path / "out.whl"
    build_site.write_stored_xz(source, dest)
    with zipfile.ZipFile(dest) as z:
        assert [i.filename for i in z.infolist()] == list(FILES)
        assert all(i.compress_type == zipfile.ZIP_STORED for i in z.infolist())
        assert all(i.date_time == (2020, 1, 2, 3, 4, 6) for i in z.infolist())
        assert {n: z.read(n) for n in z.namelist()} == FILES
    packed = (tmp_path / "out.whl.xz").read_bytes()
    assert lzma.decompress(packed, format=lzma.FORMAT_XZ) == dest.read_bytes()
    assert packed[6:8] == b"\x00\x01"  # stream flags: CRC32


def test_same_input_same_bytes_also_in_place(tmp_path):
    first = tmp_path / "a.zip"
    build_site.write_stored_xz(deflated_zip(tmp_path / "src.zip"), first)
    again = deflated_zip(tmp_path / "b.zip")
    build_site.write_stored_xz(again, again)  # source is dest: read whole before writing
    assert again.read_bytes() == first.read_bytes()
    assert (tmp_path / "b.zip.xz").read_bytes() == (tmp_path / "a.zip.xz").read_bytes()


def test_the_wrapped_decoder_decodes_what_the_build_wrote(tmp_path):
    module = tmp_path / "xz-decompress.mjs"
    build_site.write_xz_decoder(module)
    build_site.write_stored_xz(deflated_zip(tmp_path / "in.zip"), tmp_path / "out.zip")
    script = (
        f"import {{ XzReadableStream }} from {json.dumps(module.as_uri())};"
        "import { readFileSync } from 'node:fs';"
        f"const body = new Response(readFileSync({json.dumps(str(tmp_path / 'out.zip.xz'))})).body;"
        "const out = new Uint8Array(await new Response(new XzReadableStream(body)).arrayBuffer());"
        "process.stdout.write(Buffer.from(out).toString('base64'));"
    )
    out = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True)
    assert base64.b64decode(out.stdout) == (tmp_path / "out.zip").read_bytes()


def entry_site(tmp_path: Path, text: str | None = None) -> Path:
    boot = tmp_path / "assets" / "js" / "boot"
    boot.mkdir(parents=True)
    source = ROOT / "docs" / "assets" / "js" / "boot" / "pyodide-worker.mjs"
    (boot / "pyodide-worker.mjs").write_text(source.read_text() if text is None else text)
    return boot / "pyodide-worker.mjs"


RUNTIME = {
    "pyodideDir": "../../pyodide/1.0/",
    "stdlib": "../../pyodide/1.0/python_stdlib_pyc.zip",
    "xzDecoder": "./xz-decompress.mjs",
    "xz": {
        "../../pyodide/1.0/pyodide.asm.wasm": "../../pyodide/1.0/pyodide.asm.wasm.xz",
        "../../pyodide/1.0/python_stdlib_pyc.zip": "../../pyodide/1.0/python_stdlib_pyc.zip.xz",
        "../../wheels/calc.whl": "../../wheels/calc.whl.xz",
    },
}


def test_worker_entry_gets_runtime_urls_wasm_first(tmp_path):
    """The worker's entry requests runtime.mjs's own URLs (no second list): the wasm's and the
    standard library's xz (the wasm first), Pyodide's two modules and the xz decoder; no wheel."""
    entry = entry_site(tmp_path)
    for name, size in (("pyodide.asm.wasm.xz", 30), ("python_stdlib_pyc.zip.xz", 20)):
        (tmp_path / "assets" / "pyodide" / "1.0").mkdir(parents=True, exist_ok=True)
        (tmp_path / "assets" / "pyodide" / "1.0" / name).write_bytes(b"x" * size)
    build_site.write_worker_entry(tmp_path, RUNTIME)
    (line,) = [x for x in entry.read_text().splitlines() if x.startswith("const EARLY = ")]
    early = json.loads(line.removeprefix("const EARLY = ").split("; //")[0])
    assert list(early["files"].items()) == [
        ("../../pyodide/1.0/pyodide.asm.wasm", "../../pyodide/1.0/pyodide.asm.wasm.xz"),
        ("../../pyodide/1.0/python_stdlib_pyc.zip", "../../pyodide/1.0/python_stdlib_pyc.zip.xz"),
    ]
    assert list(early["bytes"].values()) == [30, 20]  # the sizes of the files just listed, in order
    assert list(early["bytes"]) == [packed for _, packed in early["files"].items()]
    assert early["modules"] == [
        "../../pyodide/1.0/pyodide.mjs",
        "../../pyodide/1.0/pyodide.asm.mjs",
        "./xz-decompress.mjs",
    ]
    built = entry.read_text()
    build_site.write_worker_entry(tmp_path, {**RUNTIME, "xzDecoder": "./xz2.mjs"})  # written again: replaced
    assert entry.read_text() == built.replace("./xz-decompress.mjs", "./xz2.mjs")


def test_worker_entry_without_its_line_fails_the_build(tmp_path):
    entry_site(tmp_path, "self.onmessage = () => {};\n")
    with pytest.raises(build_site.BuildError, match="const EARLY = null"):
        build_site.write_worker_entry(tmp_path, RUNTIME)
