"""Say whether a published snapshot describes this checkout (exit 1 with the reasons if not)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("stamp", help="a snapshot's stamp.json")
    p.add_argument("--any-config", action="store_true",
                   help="a partial run: do not require the current config")
    p.add_argument("--results-page", default="docs/results.md",
                   help="where setting changes since the snapshot are documented")


def run(a: argparse.Namespace) -> None:
    from entropic_bound.reporting.snapshot import (
        added_keys,
        changed_settings,
        documented_changes,
        stale_reasons,
    )

    documented = documented_changes(a.results_page) if Path(a.results_page).exists() else set()
    reasons = stale_reasons(a.stamp, require_current_config=not a.any_config,
                            acknowledged=documented)
    for reason in reasons:
        print(f"{a.stamp}: stale: {reason}")
    if reasons:
        sys.exit(1)
    new, changed = added_keys(a.stamp), changed_settings(a.stamp) or []
    print(f"{a.stamp}: describes this checkout"
          + (f" (its settings; keys added since, at their defaults: {', '.join(new)})"
             if new else "")
          + (f"; settings changed since, documented in {a.results_page}: {', '.join(changed)}"
             if changed else ""))
