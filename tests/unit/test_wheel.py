"""The library stands on its own: a wheel installed into a fresh virtualenv, run outside any
checkout, finds its config schema (package data) and runs ``estimate-rank`` and ``inspect``."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig

import numpy as np
import pytest
from conftest import ROOT, tiny_e6_cell


@pytest.fixture(scope="module")
def wheel_venv(tmp_path_factory):
    """A fresh venv holding the wheel of this checkout; its dependencies come from this
    environment's site-packages as a plain path entry (not a site dir, so this environment's
    editable install of the package is not seen)."""
    root = tmp_path_factory.mktemp("wheel")
    source = root / "source"  # built from a copy: the build leaves build/ beside its sources
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "src", source / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                            "--no-build-isolation", "-q", "-w", str(root / "dist"), str(source)],
                           capture_output=True, text=True)
    if built.returncode:
        pytest.fail(f"pip wheel failed: {built.stderr[-2000:]}")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / "venv")],
                   check=True)
    python = root / "venv/bin/python"
    wheel = next((root / "dist").glob("entropic_bound-*.whl"))
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                    "--no-deps", str(wheel)], check=True, capture_output=True)
    purelib = subprocess.run([str(python), "-c", "import sysconfig; "
                              "print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (root / purelib / "deps.pth").write_text("\n".join(sorted(deps)) + "\n")
    return root


def run(venv_root, *args, cwd):
    return subprocess.run([str(venv_root / "venv/bin/entropic-bound"), *args], cwd=cwd,
                          capture_output=True, text=True)


def test_the_wheel_holds_the_schema_and_is_not_the_checkout(wheel_venv, tmp_path):
    code = ("import entropic_bound, pathlib; from entropic_bound.plumbing.settings import "
            "SCHEMA, schema_defaults; print(entropic_bound.__file__); print(SCHEMA.is_file()); "
            "print(schema_defaults('e4')['z_crit'])")
    out = subprocess.run([str(wheel_venv / "venv/bin/python"), "-c", code], cwd=tmp_path,
                         capture_output=True, text=True, check=True).stdout.split()
    assert str(wheel_venv / "venv") in out[0] and str(ROOT / "src") not in out[0]
    assert out[1:] == ["True", "3.0"]


def test_the_wheel_runs_estimate_rank_outside_a_checkout(wheel_venv, tmp_path):
    from entropic_bound.data.mixers import mixer

    rng = np.random.default_rng(0)
    n, T, d = 200, 4, 6
    x = rng.standard_normal((n, T, d))
    a, b = rng.standard_normal((d, 1)), rng.standard_normal((d, 1))
    v = rng.standard_normal((d, d))
    y = mixer("linear_qk", x, a @ b.T) @ x @ v + 0.01 * rng.standard_normal((n, T, d))
    np.savez(tmp_path / "task.npz", X=x, Y=y, V=v)
    out = run(wheel_venv, "estimate-rank", "task.npz", "--mixing", "linear", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "heldout_fit" in out.stdout


def test_the_wheel_runs_inspect_on_an_e6_cell_outside_a_checkout(wheel_venv, tmp_path):
    tiny_e6_cell(tmp_path, steps=5)
    out = run(wheel_venv, "inspect", "c.npz", "--text", "text.txt", "--meta", "meta.json",
              "--windows", "4", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "static_reff" in out.stdout and len(out.stdout.splitlines()) == 1 + 2 * 4
