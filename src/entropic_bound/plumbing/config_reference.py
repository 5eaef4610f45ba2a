"""The configuration reference (``docs/configuration.md``), generated from the config schema.

The schema (``src/entropic_bound/config.schema.yaml``) is the one home of every default and of
what each key means; this module renders it as one table per section: key, what it accepts,
its default, the value ``config.yaml`` (the paper's settings) gives it, and its description.
``tests/unit/test_docs.py`` fails when the page is stale.

    python -m entropic_bound.plumbing.config_reference > docs/configuration.md
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

SCHEMA = "src/entropic_bound/config.schema.yaml"
CONFIG = "config.yaml"
HEADER = """# Configuration reference

Generated from `src/entropic_bound/config.schema.yaml` by
`python -m entropic_bound.plumbing.config_reference > docs/configuration.md` (a test fails when
this page is stale): the schema is the one home of every default. *paper* is the value
`config.yaml` (the paper's settings) gives a key, where it sets one. Change any key with
`--config` or an extra `--configfile` ([running](running.md)); a value outside what a key
accepts fails before any job runs, naming the key. Back to the [README](../README.md).
"""
_BOUNDS = (("minimum", ">= {}"), ("exclusiveMinimum", "> {}"), ("maximum", "<= {}"),
           ("exclusiveMaximum", "< {}"))


def _text(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str) else value


def accepts(node: dict) -> str:
    """What a schema node accepts, in words: its type, enum, bounds, item type or pattern."""
    kind = node.get("type", "")
    parts = [" or ".join(kind) if isinstance(kind, list) else kind]
    if "enum" in node:
        parts = ["one of " + ", ".join(_text(v) for v in node["enum"])]
    parts += [fmt.format(node[key]) for key, fmt in _BOUNDS if key in node]
    if "pattern" in node:
        parts.append(f"matching `{node['pattern']}`")
    if "items" in node and "properties" not in node["items"]:
        parts = [parts[0].replace("array", "list"), f"of {accepts(node['items'])}", *parts[1:]]
    return " ".join(p for p in parts if p)


def _cell(value: str) -> str:
    return " ".join(str(value).split()).replace("|", "\\|")


def rows(node: dict, config: Any, prefix: str = "") -> Iterator[tuple[str, ...]]:
    """(key, accepts, default, paper, description) of every key below ``node``, depth first;
    a mapping of free names (``e6.corpora``, ``e4.settings``) is one row, ``<name>``."""
    for key, child in node.get("properties", {}).items():
        path = f"{prefix}{key}"
        given = config.get(key) if isinstance(config, dict) else None
        default = _text(child["default"]) if "default" in child else ""
        paper = "" if given is None or "properties" in child else _text(given)
        description = child.get("description", "")
        if "properties" in child:
            if description:
                yield (path, "section", "", "", description)
            yield from rows(child, given or {}, f"{path}.")
        elif isinstance(child.get("additionalProperties"), dict):
            names = ", ".join(given) if isinstance(given, dict) else ""
            yield (f"{path}.<name>", "mapping", default, names, description)
        else:
            yield (path, accepts(child), default, paper, description)


def reference_markdown(schema: str | Path = SCHEMA, config: str | Path = CONFIG) -> str:
    """The whole reference page: one table per top-level section."""
    tree = yaml.safe_load(Path(schema).read_text())
    paper = yaml.safe_load(Path(config).read_text())
    lines = [HEADER]
    top = [(k, v) for k, v in tree["properties"].items() if "properties" not in v]
    sections = [(k, v) for k, v in tree["properties"].items() if "properties" in v]
    groups = [("Run", {"properties": dict(top)}, paper, "")]
    groups += [(key, node, paper.get(key, {}), f"{key}.") for key, node in sections]
    for title, node, given, prefix in groups:
        lines += [f"## {title}", ""]
        if node.get("description"):
            lines += [_cell(node["description"]), ""]
        lines += ["| key | accepts | default | paper | description |", "|---|---|---|---|---|"]
        lines += ["| " + " | ".join(_cell(c) if i else f"`{c}`" for i, c in enumerate(row)) + " |"
                  for row in rows(node, given, prefix)]
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    print(reference_markdown(), end="")
