"""tools/build_site.py's runtime files as the worker downloads them: a zip rewritten with stored
entries (same names, order, dates and bytes) and its xz, which decodes to that stored zip under a
check xz-embedded verifies (CRC32), the same bytes on every build, also when the zip is rewritten
in place (a redeploy); the xz decoder wrapped as an ES module decodes what the build wrote."""

from __future__ import annotations

import base64
import json
import lzma
import subprocess
import sys
import zipfile
from pathlib import Path

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
