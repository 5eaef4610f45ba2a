"""Render the report (Markdown and HTML) from the tables and the claims."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import add_paths

OPTIONS = ("params",)  # the shared options it reads (cli.SHARED)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p, "--claims", "--templates", "--markdown", "--html", many=("--tables",))
    p.add_argument("--paper-config", default=None, help="the paper's config.yaml, to diff")
    p.add_argument("--schema", default=None, help="config schema, to fill the paper's defaults")
    p.add_argument("--captions", default=None, help="folder of figure_<table>.rst captions")
    p.add_argument("--machine-study", default=None, metavar="DIR",
                   help="a published machine study (entropic-bound machine-study): a section "
                        "on it")


def run(a: argparse.Namespace) -> None:
    from entropic_bound.reporting.report import render_report

    render_report(a.tables, a.claims, a.templates, a.markdown, a.html, a.params,
                  paper_config=a.paper_config, schema=a.schema, captions=a.captions,
                  machine_study=a.machine_study)
