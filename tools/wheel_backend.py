"""A minimal PEP 517 backend for the `calc` package, standard library only.

Why not setuptools: the wheel must build offline, fast and byte-for-byte reproducibly (its sha256
goes into the Pyodide lock file and the service worker's cache name). It packs `calc/**/*.py` and
the exported `calc/rules.json`; the version carries the data version so a data change gives a new
wheel name and hash.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # calc.packages: the one list of which module goes in which wheel
from calc import packages  # noqa: E402

PACKAGE = "calc"
BASE_VERSION = "0.1.0"
FIXED_DATE = (1980, 1, 1, 0, 0, 0)


def package_version() -> str:
    """`0.1.0+<data version>` once `calc/rules.json` is exported, else `0.1.0`."""
    rules = ROOT / PACKAGE / "rules.json"
    if rules.exists():
        data_version = json.loads(rules.read_text(encoding="utf-8")).get("version")
        if data_version:
            return f"{BASE_VERSION}+{data_version}"
    return BASE_VERSION


def package_files(package: str | None = None) -> list[Path]:
    """The files shipped: every module of the source tree and the exported rules data, or those of
    one browser package (`calc.packages.PACKAGES`)."""
    pkg = ROOT / PACKAGE
    files = [p for p in pkg.rglob("*.py") if "__pycache__" not in p.parts]
    if (pkg / "rules.json").exists():
        files.append(pkg / "rules.json")
    if package is not None:
        files = [p for p in files if packages.package_of(packages.module_of(p.relative_to(ROOT).as_posix())) == package]
    return sorted(files)


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_wheel(
    wheel_directory: str, config_settings: dict | None = None, metadata_directory: str | None = None
) -> str:
    """PEP 517 hook: write the wheel into `wheel_directory`; return its file name. The setting
    `package` picks one of `calc.packages.PACKAGES` (default `calc`)."""
    package = (config_settings or {}).get("package", packages.BASE)
    if package not in packages.PACKAGES:
        raise ValueError(f"unknown package {package!r} (one of {', '.join(packages.PACKAGES)})")
    version = package_version()
    dist = package.replace("-", "_")
    dist_info = f"{dist}-{version}.dist-info"
    name = f"{dist}-{version}-py3-none-any.whl"
    files = package_files(package)
    entries: list[tuple[str, bytes]] = [(p.relative_to(ROOT).as_posix(), p.read_bytes()) for p in files]
    entries.append((f"{dist_info}/METADATA", _metadata(version, package).encode()))
    entries.append(
        (
            f"{dist_info}/WHEEL",
            b"Wheel-Version: 1.0\nGenerator: combat-codex wheel_backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        )
    )
    entries.append((f"{dist_info}/top_level.txt", f"{PACKAGE}\n".encode()))
    record = "\n".join(_record_line(n, d) for n, d in entries) + f"\n{dist_info}/RECORD,,\n"
    entries.append((f"{dist_info}/RECORD", record.encode()))
    out = Path(wheel_directory) / name
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as whl:
        for entry_name, data in entries:
            whl.writestr(zipfile.ZipInfo(entry_name, FIXED_DATE), data, zipfile.ZIP_DEFLATED)
    return name


def _metadata(version: str, package: str = packages.BASE) -> str:
    """Core metadata from pyproject.toml's [project] table (written once, there); the second
    package is named after it (`<name>-fight`)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    name = project["name"] if package == packages.BASE else f"{project['name']}-{package.removeprefix('calc-')}"
    return (
        "Metadata-Version: 2.1\n"
        f"Name: {name}\n"
        f"Version: {version}\n"
        f"Summary: {project.get('description', '')}\n"
        f"Requires-Python: {project.get('requires-python', '>=3')}\n"
    )


def get_requires_for_build_wheel(config_settings: dict | None = None) -> list[str]:
    """PEP 517 hook: nothing beyond the standard library."""
    return []
