"""The environment is reproducible: requirements.lock pins every dependency of the package
exactly, the conda env file installs that same file, and this interpreter runs those versions."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import yaml
from conftest import ROOT
from packaging.requirements import Requirement
from packaging.version import Version


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def lock_pins() -> dict[str, str]:
    """Canonical package name -> pinned version, of requirements.lock or of the lock
    ``ENTROPIC_BOUND_LOCK`` names (.ci/floor's: Snakemake at the admitted floor)."""
    import os

    text = Path(os.environ.get("ENTROPIC_BOUND_LOCK", ROOT / "requirements.lock")).read_text()
    return {canonical(m.group(1)): m.group(2)
            for m in re.finditer(r"^([A-Za-z0-9_.\-]+)==(\S+)", text, re.MULTILINE)}


def declared() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = project["dependencies"] + [r for extra in project["optional-dependencies"].values()
                                       for r in extra]
    return [Requirement(r) for r in names]


def test_the_lock_pins_every_declared_dependency_inside_its_range():
    pins = lock_pins()
    assert len(pins) > 50  # the whole set, transitive dependencies included
    for req in declared():
        pinned = pins.get(canonical(req.name))
        assert pinned, f"{req.name} is declared in pyproject.toml but not pinned in the lock"
        assert Version(pinned) in req.specifier, f"lock pins {req.name}=={pinned}, outside {req}"


def test_the_conda_env_installs_the_lock_from_wherever_snakemake_stages_it(tmp_path):
    """Snakemake copies envs/entropic-bound.yaml and its post-deploy script into its conda
    folder before it creates the environment (snakemake/deployment/conda.py, create_env), so
    neither may name a path relative to itself (`-r ../requirements.lock` resolved to
    .snakemake/requirements.lock). Staged as Snakemake stages them, and run with a stand-in
    `python` that records what it is asked: every path the script names exists, the lock's
    sha256 it carries is the lock's (so a new lock is a new environment), and it installs
    torch as the README says (the CPU build on Linux x86-64 without an NVIDIA driver, PyPI's
    with one or elsewhere), then the lock and this checkout."""
    import hashlib
    import os
    import shutil
    import subprocess

    staged = tmp_path / "work/.snakemake/conda"
    staged.mkdir(parents=True)
    env_file, deploy = staged / "0123abcd_.yaml", staged / "0123abcd_.post-deploy.sh"
    shutil.copy(ROOT / "envs/entropic-bound.yaml", env_file)
    shutil.copy(ROOT / "envs/entropic-bound.post-deploy.sh", deploy)
    env = yaml.safe_load(env_file.read_text())
    names = [d for d in env["dependencies"] if isinstance(d, str)]
    assert not [d for d in env["dependencies"] if not isinstance(d, str)], "no pip section"
    assert not [n for n in names if "/" in n or ".." in n], names
    assert "variables" not in env  # nothing tells a job it runs here: its keys are a plain run's
    lock_sha = hashlib.sha256((ROOT / "requirements.lock").read_bytes()).hexdigest()
    assert lock_sha in deploy.read_text()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").write_text(f"#!/bin/sh\necho \"$@\" >> {tmp_path}/asked\n")
    (bin_dir / "python").chmod(0o755)
    torch = next(f"torch=={v}" for n, v in lock_pins().items() if n == "torch")

    def deployed(machine: str, driver: bool) -> list[str]:
        """What the script asks pip on ``machine`` (uname -s, -m), with an NVIDIA driver or
        not (stand-ins on the PATH)."""
        for name, present in (("nvidia-smi", driver), ("uname", True)):
            (bin_dir / name).unlink(missing_ok=True)
            if present:
                script = "exit 0" if name == "nvidia-smi" else \
                    f'[ "$1" = -s ] && echo {machine.split("-")[0]} || echo {machine.split("-")[1]}'
                (bin_dir / name).write_text(f"#!/bin/sh\n{script}\n")
                (bin_dir / name).chmod(0o755)
        (tmp_path / "asked").unlink(missing_ok=True)
        run = subprocess.run(["bash", str(deploy)], cwd=tmp_path / "work", capture_output=True,
                             text=True, env={**os.environ, "ENTROPIC_BOUND_ROOT": str(ROOT),
                                             "PATH": f"{bin_dir}:/usr/bin:/bin"})
        assert run.returncode == 0, run.stderr
        return (tmp_path / "asked").read_text().splitlines()

    lock_and_checkout = [f"-m pip install --no-deps -r {ROOT}/requirements.lock",
                         f"-m pip install --no-deps -e {ROOT}"]
    cpu = f"-m pip install {torch} --index-url https://download.pytorch.org/whl/cpu"
    assert deployed("Linux-x86_64", driver=False) == [cpu, *lock_and_checkout]
    assert deployed("Linux-x86_64", driver=True) == [f"-m pip install {torch}",
                                                     *lock_and_checkout]
    assert deployed("Darwin-arm64", driver=False) == lock_and_checkout
    # a lock other than the one it names is refused before anything is installed
    other = tmp_path / "other"
    other.mkdir()
    (other / "requirements.lock").write_text("numpy==1.0\n")
    (tmp_path / "asked").unlink()
    refused = subprocess.run(["bash", str(deploy)], capture_output=True, text=True,
                             env={**os.environ, "ENTROPIC_BOUND_ROOT": str(other),
                                  "PATH": f"{bin_dir}:/usr/bin:/bin"})
    assert refused.returncode != 0 and not (tmp_path / "asked").exists()


def test_this_interpreter_runs_the_locked_versions():
    """Fails where the environment drifted from the lock (install with the README's command)."""
    drift, pins = {}, lock_pins()
    for req in declared():
        try:
            installed = version(req.name)
        except PackageNotFoundError:
            continue  # an extra this environment did not install (slurm)
        pinned = pins[canonical(req.name)]
        # torch's CPU wheel calls itself 2.13.0+cpu: the local label names the build, not the
        # version.
        if Version(installed).base_version != Version(pinned).base_version:
            drift[req.name] = (installed, pinned)
    assert drift == {}, f"installed vs locked: {drift}"


def test_the_declared_snakemake_range_is_what_the_workflow_asks_for():
    """pyproject admits every Snakemake from the oldest release where the workflow is right
    (9.19.0: tests/workflow/test_ways_in.py, which CI runs under it) to the next
    major release, and the Snakefile's min_version is that floor: an install that pip accepts
    is never refused by the workflow."""
    import re

    req = next(r for r in declared() if canonical(r.name) == "snakemake")
    for inside in ("9.19.0", "9.27.1", "10.0.0", "10.9.9"):
        assert Version(inside) in req.specifier, (inside, str(req.specifier))
    for outside in ("8.30.0", "9.1.3", "9.18.2", "11.0.0"):
        assert Version(outside) not in req.specifier, (outside, str(req.specifier))
    floor = re.search(r'min_version\("([\d.]+)"\)', (ROOT / "Snakefile").read_text()).group(1)
    assert Version(floor) in req.specifier and Version(floor) == Version("9.19.0")
