"""A minimal PEP 517 build backend (standard library only) for the test plugin."""

from __future__ import annotations

import base64
import hashlib
import io
import tarfile
import tomllib
import zipfile
from pathlib import Path
from typing import Any

_HERE = Path(__file__).parent
_MODULES = ("accord_coin_plugin.py", "accord_broken_plugin.py")


def _project() -> dict[str, Any]:
    project: dict[str, Any] = tomllib.loads((_HERE / "pyproject.toml").read_text())["project"]
    return project


def _stem() -> str:
    project = _project()
    return f"{project['name'].replace('-', '_')}-{project['version']}"


def _metadata() -> dict[str, str]:
    project = _project()
    points = "".join(
        f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in entries.items())
        for group, entries in project["entry-points"].items()
    )
    return {
        "METADATA": f"Metadata-Version: 2.1\nName: {project['name']}\n"
        f"Version: {project['version']}\nSummary: {project['description']}\n",
        "WHEEL": "Wheel-Version: 1.0\nGenerator: coin_backend\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n",
        "entry_points.txt": points,
    }


def get_requires_for_build_wheel(config_settings: object = None) -> list[str]:
    return []


def get_requires_for_build_sdist(config_settings: object = None) -> list[str]:
    return []


def build_wheel(
    wheel_directory: str, config_settings: object = None, metadata_directory: object = None
) -> str:
    stem = _stem()
    files = {name: (_HERE / name).read_bytes() for name in _MODULES}
    files.update({f"{stem}.dist-info/{k}": v.encode() for k, v in _metadata().items()})
    record = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{stem}.dist-info/RECORD,,")
    files[f"{stem}.dist-info/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel_name = f"{stem}-py3-none-any.whl"
    with zipfile.ZipFile(Path(wheel_directory) / wheel_name, "w") as wheel:
        for name, data in files.items():
            wheel.writestr(name, data)
    return wheel_name


def build_sdist(sdist_directory: str, config_settings: object = None) -> str:
    stem = _stem()
    name = f"{stem}.tar.gz"
    with tarfile.open(Path(sdist_directory) / name, "w:gz") as sdist:
        for source in ("pyproject.toml", "coin_backend.py", *_MODULES):
            data = (_HERE / source).read_bytes()
            info = tarfile.TarInfo(f"{stem}/{source}")
            info.size = len(data)
            sdist.addfile(info, io.BytesIO(data))
    return name
