"""Configuration as the workflow receives it: typed command-line overrides, the check that a
profile's settings file was not silently replaced, the schema's defaults and validation (the
check that the settings make each experiment meaningful is science's:
:mod:`entropic_bound.data.meaningful`).

Snakemake parses a nested ``--config 'e3={"n": 300}'`` with YAML's BaseLoader, so every leaf
arrives as a string ('300') and schema validation rejects it. :func:`typed_overrides` turns such
leaves back into the numbers, booleans and nulls they spell. A workflow profile's ``configfile``
is a default for the command line, so an extra ``--configfile`` replaces it instead of adding
to it; :func:`check_profile_overlay` stops the run before any job and names the form that layers
both.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

# Config keys that name the run (a profile and its settings file), not a setting of the
# experiments: left out of settings diffs and config hashes.
RUN_KEYS = ("profile", "overlay")

_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_WORDS = {"true": True, "false": False, "null": None, "~": None}


def typed_leaf(value: Any) -> Any:
    """'300' -> 300, '1e-3' -> 0.001, 'true' -> True, 'null' -> None; anything else as given."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if text.lower() in _WORDS:
        return _WORDS[text.lower()]
    if _NUMBER.match(text):
        return int(text) if re.fullmatch(r"[+-]?\d+", text) else float(text)
    return value


def typed_overrides(cfg: Any) -> Any:
    """``typed_leaf`` applied to every leaf of nested dicts and lists (a new structure)."""
    if isinstance(cfg, dict):
        return {k: typed_overrides(v) for k, v in cfg.items()}
    if isinstance(cfg, list):
        return [typed_overrides(v) for v in cfg]
    return typed_leaf(cfg)


class ProfileOverlayReplaced(ValueError):
    """A profile's settings file was replaced by a command-line --configfile."""


def check_profile_overlay(cfg: dict) -> None:
    """Raise when the profile named by ``profile`` is active but its settings file (which sets
    ``overlay`` to the same name) is not in the config."""
    profile = cfg.get("profile")
    if profile and cfg.get("overlay") != profile:
        path = f"profiles/{profile}/{profile}.yaml"
        raise ProfileOverlayReplaced(
            f"the {profile} profile's settings file {path} is not in the config: a command-line "
            f"--configfile replaces a profile's configfile instead of adding to it. Name both, "
            f"the profile's first: --configfile {path} <your file>.yaml")


def flat_settings(cfg: Any, prefix: str = "") -> dict[str, Any]:
    """Leaves of a nested config as ``{"e3.train.lr": 0.01, "e6.corpora[0].name": ...}``;
    a list of scalars stays one leaf."""
    if isinstance(cfg, dict):
        out: dict[str, Any] = {}
        for key, value in cfg.items():
            out.update(flat_settings(value, f"{prefix}{key}."))
        return out
    if isinstance(cfg, list) and any(isinstance(v, (dict, list)) for v in cfg):
        out = {}
        for i, value in enumerate(cfg):
            out.update(flat_settings(value, f"{prefix.rstrip('.')}[{i}]."))
        return out
    return {prefix.rstrip("."): cfg}


def fixed_operators(c: dict) -> list[str]:
    """The teacher operators a fixed-operator experiment (config section ``c``: e1, e2) trains
    on: the paper's operator first, then each sensitivity variant that differs from it."""
    return [c["operator"], *(o for o in c["operator_variants"] if o != c["operator"])]


# The config schema: package data, so an installed wheel has it; the workflow validates its
# config against the same file (workflow/rules/common.smk).
SCHEMA = Path(__file__).resolve().parents[1] / "config.schema.yaml"


def schema_defaults(*section: str, schema: str | Path = SCHEMA) -> dict:
    """The defaults the config schema gives one section (``schema_defaults("e6", "train")``):
    the one place every default is written, for the commands and tests that need them outside
    a workflow run."""
    import yaml

    node = yaml.safe_load(Path(schema).read_text())
    for key in section:
        node = node["properties"][key]
    return {k: v["default"] for k, v in node["properties"].items() if "default" in v}


def effective_config(path: str, schema: str | None) -> dict:
    """A config file as a run sees it: loaded, validated, schema defaults filled in (the same
    ``snakemake.utils.validate`` the workflow applies), so defaults never show as differences."""
    import yaml

    with open(path) as fh:
        cfg = yaml.safe_load(fh)
    if schema:
        validate_with_defaults(cfg, schema)
    return cfg


class InvalidConfig(ValueError):
    """A config that the schema rejects; the message names the key and what it expects."""


def validate_with_defaults(cfg: dict, schema: str | Path = SCHEMA) -> dict:
    """Validate ``cfg`` against the JSON schema (``jsonschema``) and fill in every default the
    schema gives, in place, as the workflow's validation (``snakemake.utils.validate`` with
    ``set_default``) does: wherever an object is checked against a subschema with
    ``properties`` (nested sections, list items, every branch checked), a missing property
    takes its ``default``. Raises :class:`InvalidConfig` naming the first offending key."""
    import jsonschema
    import yaml

    spec = yaml.safe_load(Path(schema).read_text())
    base = jsonschema.Draft202012Validator
    check_properties = base.VALIDATORS["properties"]

    def properties_with_defaults(validator, properties, instance, subschema):
        if validator.is_type(instance, "object"):
            for key, sub in properties.items():
                if "default" in sub:
                    instance.setdefault(key, copy.deepcopy(sub["default"]))
        yield from check_properties(validator, properties, instance, subschema)

    filling = jsonschema.validators.extend(base, {"properties": properties_with_defaults})
    errors = sorted(filling(spec).iter_errors(cfg), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        where = ".".join(str(k) for k in first.absolute_path) or "(top level)"
        raise InvalidConfig(f"config {where}: {first.message}")
    return cfg
