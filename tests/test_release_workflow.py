"""The release workflow (.github/workflows/release.yml) builds what docs/install.md promises: abi3
wheels for Linux x86_64 and aarch64, macOS (Intel and Apple silicon) and Windows, and the sdist,
all with maturin's action, published only from a version tag. (The workflow itself runs on the
public CI; here its file is checked, and `maturin build --release` was run by hand for Linux.)"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
MATURIN = "PyO3/maturin-action@v1"


def workflow() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / ".github" / "workflows" / "release.yml").read_text())
    assert isinstance(data, dict)
    return data


def maturin_steps(job: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for s in job["steps"] if s.get("uses") == MATURIN]


def targets(job: dict[str, Any]) -> list[str]:
    matrix = job["strategy"]["matrix"]
    return matrix.get("target") or [entry["target"] for entry in matrix["include"]]


def test_wheels_are_built_for_every_platform_with_maturin() -> None:
    jobs = workflow()["jobs"]
    assert sorted(targets(jobs["linux"])) == ["aarch64", "x86_64"]
    assert sorted(targets(jobs["macos"])) == ["aarch64", "x86_64"]
    assert targets(jobs["windows"]) == ["x64"]
    assert jobs["linux"]["runs-on"] == "ubuntu-latest" and jobs["windows"]["runs-on"] == "windows-latest"
    assert all(entry["runner"].startswith("macos-") for entry in jobs["macos"]["strategy"]["matrix"]["include"])
    for name in ("linux", "macos", "windows"):
        (step,) = maturin_steps(jobs[name])
        assert step["with"]["target"] == "${{ matrix.target }}", name
        assert "--profile dist" in step["with"]["args"] and "--out dist" in step["with"]["args"], name
        assert step["with"].get("command", "build") == "build", name
    assert jobs["linux"]["steps"][-1]["with"]["name"] == "wheels-linux-${{ matrix.target }}"
    assert maturin_steps(jobs["linux"])[0]["with"]["manylinux"] == "2_28"


def test_the_wheels_are_abi3_and_the_dist_profile_exists() -> None:
    cargo = tomllib.loads((ROOT / "Cargo.toml").read_text())  # the workspace
    assert "abi3-py311" in cargo["workspace"]["dependencies"]["pyo3"]["features"]  # one wheel per platform, CPython >= 3.11
    assert cargo["profile"]["dist"]["inherits"] == "release"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["requires-python"] == ">=3.11"
    assert project["version"] == cargo["workspace"]["package"]["version"]  # the workflow checks the tag against both
    # Every crate takes the workspace's version, and the first `version = ` line is the workspace's.
    for member in cargo["workspace"]["members"]:
        assert tomllib.loads((ROOT / member / "Cargo.toml").read_text())["package"]["version"] == {"workspace": True}
    first = next(line for line in (ROOT / "Cargo.toml").read_text().splitlines() if line.startswith("version = "))
    assert first == f'version = "{project["version"]}"'


def test_the_sdist_is_built_and_everything_is_published_from_a_tag_only() -> None:
    data = workflow()
    trigger = data.get("on", data.get(True))  # YAML 1.1 reads a bare `on` key as True
    assert trigger["push"]["tags"] == ["v*"]
    jobs = data["jobs"]
    (sdist,) = maturin_steps(jobs["sdist"])
    assert sdist["with"]["command"] == "sdist" and "--out dist" in sdist["with"]["args"]
    publish = jobs["publish"]
    assert sorted(publish["needs"]) == ["linux", "macos", "sdist", "windows"]
    assert publish["if"] == "startsWith(github.ref, 'refs/tags/v')"
    assert publish["permissions"] == {"id-token": "write"}
    assert publish["steps"][0]["with"]["pattern"] == "wheels-*"
    assert publish["steps"][-1]["uses"].startswith("pypa/gh-action-pypi-publish@")
    # Every artifact the publish job collects is named wheels-*; no other job publishes.
    uploads = [s["with"]["name"] for job in jobs.values() for s in job["steps"]
               if s.get("uses", "").startswith("actions/upload-artifact@")]
    assert len(uploads) == 4 and all(name.startswith("wheels-") for name in uploads)
    assert data["permissions"] == {"contents": "read"}
    check = next(s["run"] for s in jobs["sdist"]["steps"] if s.get("name") == "The tag is the package's version")
    assert re.search(r"for file in Cargo.toml pyproject.toml", check)
