"""The front door and the docs: README within its length, every relative link resolving, every
docs page reachable from README, and the configuration reference as the schema generates it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from entropic_bound.plumbing.config_reference import reference_markdown, rows

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def relative_links(page: Path) -> list[str]:
    """Targets of the Markdown links of ``page`` that point into the repository (code spans
    and fenced blocks left out)."""
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    return [t for t in LINK.findall(text) if not re.match(r"[a-z]+:", t)]


def test_the_readme_is_a_front_door():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 150


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_resolves(page):
    for target in relative_links(page):
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        assert dest.exists(), f"{page.name}: {target} does not exist"
        if anchor and dest.suffix == ".md":
            headings = {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-")
                        for h in re.findall(r"^#+ (.+)$", dest.read_text(), re.M)}
            assert anchor in headings, f"{page.name}: no heading #{anchor} in {path}"


def test_the_link_check_fails_on_a_dangling_link(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("see [there](missing.md) and `[not a link](x)` and [web](https://x.org)\n")
    assert relative_links(page) == ["missing.md"]
    assert not (tmp_path / "missing.md").exists()


def test_every_docs_page_is_reachable_from_the_readme():
    linked = {(ROOT / t.partition("#")[0]).resolve() for t in relative_links(ROOT / "README.md")}
    assert set(PAGES[1:]) <= linked


def test_the_configuration_reference_is_what_the_schema_generates():
    """Stale when a key, default or description changed in the schema (regenerate with
    python -m entropic_bound.plumbing.config_reference > docs/configuration.md)."""
    assert (ROOT / "docs/configuration.md").read_text() == reference_markdown(
        ROOT / "src/entropic_bound/config.schema.yaml", ROOT / "config.yaml")


def test_every_config_key_says_what_it_means():
    import yaml

    schema = yaml.safe_load((ROOT / "src/entropic_bound/config.schema.yaml").read_text())
    undocumented = [key for key, *_, description in rows(schema, {}) if not description]
    assert undocumented == []


def test_the_reference_gives_kind_default_and_paper_value():
    schema = {"properties": {"a": {"type": "object", "properties": {
        "k": {"type": "integer", "minimum": 1, "default": 3, "description": "a count"},
        "e": {"type": "string", "enum": ["x", "y"], "description": "a choice"}}}}}
    assert list(rows(schema, {"a": {"k": 5}})) == [
        ("a.k", "integer >= 1", "3", "5", "a count"),
        ("a.e", "one of x, y", "", "", "a choice")]


PROTOCOL_SECTION = re.compile(r"§(E[1-6]|3b|[1-4])\b")


def cited_sections(paths) -> dict[str, set[str]]:
    """``§<section>`` citations per file (the form code, tests and docs cite docs/protocol.md)."""
    return {str(p.relative_to(ROOT)): set(PROTOCOL_SECTION.findall(p.read_text()))
            for p in paths if PROTOCOL_SECTION.search(p.read_text())}


def test_every_protocol_citation_names_a_section_of_the_protocol():
    """The binding choices live in docs/protocol.md, in the project's own words; every citation
    of them names one of its sections, and nothing cites a document the repository lacks."""
    headings = set(re.findall(r"^### §(\S+) ", (ROOT / "docs/protocol.md").read_text(), re.M))
    assert {"1", "2", "3b", "4", *(f"E{i}" for i in range(1, 7))} <= headings
    sources = [*ROOT.glob("src/**/*.py"), *ROOT.glob("src/**/*.yaml"),
               *ROOT.glob("tests/**/*.py"), *ROOT.glob("workflow/**/*.smk"), *PAGES,
               ROOT / "config.yaml"]
    cited = cited_sections(sources)
    assert len(cited) > 20
    assert {f: s - headings for f, s in cited.items() if s - headings} == {}
    assert [str(p.relative_to(ROOT)) for p in sources if re.search(r"\bSPEC\b", p.read_text())
            and p.name != "test_docs.py"] == []


# Pages whose code spans name files of the repository or of a run: the docs, the front door,
# the store's own page and the profiles' comments.
NAMING_PAGES = [*PAGES, ROOT / "store/README.md", *sorted(ROOT.glob("profiles/*/config.yaml"))]
OUTPUT_SUFFIXES = (".parquet", ".html", ".md", ".png")  # the tables and the report


def code_spans(page: Path) -> list[str]:
    """The code spans of a Markdown page, or of a YAML file's comments."""
    text = page.read_text()
    if page.suffix == ".yaml":
        text = "\n".join(line.partition("#")[2] for line in text.splitlines())
    return re.findall(r"`([^`\n]+)`", text)


def output_patterns() -> list[str]:
    """Every output the rules declare, as glob patterns (wildcards -> *)."""
    text = "\n".join(p.read_text() for p in (ROOT / "workflow/rules").glob("*.smk"))
    literals = re.findall(r'"((?:results|report)/[^"]+)"', text)
    return [re.sub(r"\{[^}]*\}", "*", lit) for lit in literals]


def unknown_names(page: Path) -> list[str]:
    """Code spans of ``page`` that name a repository path that does not exist, or an output
    file no rule writes (names with placeholders, globs or options are not checked)."""
    import fnmatch

    patterns = output_patterns()
    bad = []
    for span in code_spans(page):
        if re.search(r"[<>*{}\s=$]", span) or span.startswith("-"):
            continue
        if re.match(r"(src|workflow|profiles|docs|tests|store|envs|report/templates)/", span) \
                or re.match(r"(plumbing|reporting|commands|claims|measures|data|training)/\S+"
                            r"\.py$", span):
            if not ((ROOT / span).exists() or (ROOT / "src/entropic_bound" / span).exists()):
                bad.append(span)
        elif (span.endswith(OUTPUT_SUFFIXES) and "/" not in span.strip("/")
              and not any(fnmatch.fnmatch(Path(p).name, f"*{span}") for p in patterns)
              and not list(ROOT.rglob(span))):
            bad.append(span)
    return bad


@pytest.mark.parametrize("page", NAMING_PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_the_docs_name_exists_or_is_written_by_a_rule(page):
    assert unknown_names(page) == []


def test_the_name_check_fails_on_a_stale_name(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("`claims.registry.parquet`, `reporting.report.md`, `claims.parquet`, "
                    "`store/keys.py`, `plumbing/store_hash.py`, `<key>.alias`\n")
    assert unknown_names(page) == ["claims.registry.parquet", "reporting.report.md",
                                   "plumbing/store_hash.py"]


def test_the_store_pages_say_how_the_key_is_made():
    """The store's own page and the quick profile describe the content key of
    store/keys.py, not the provenance hash it replaced."""
    for page in (ROOT / "store/README.md", ROOT / "profiles/quick/config.yaml",
                 ROOT / "docs/running.md"):
        text = page.read_text()
        assert "store/keys.py" in text or "store key" in text, page
        assert not re.search(r"(keyed|kept|found) by provenance|provenance hash of the job|"
                             r"when its provenance", text), page


MAP_ROW = re.compile(r"^\| (`\w+`|\(top\)) \| (.*) \|$", re.M)
MAP_NAME = re.compile(r"`(_?[a-z]\w*)`")
PARENS = re.compile(r"\([^()]*\)")


def module_map(text: str) -> list[tuple[str, set[str]]]:
    """docs/design.md's module map: each row's room and the modules it names, top first (a
    "(top)" row names top-level modules, each its own room)."""
    section = text.split("## Module map", 1)[1].split("\n## ", 1)[0]
    rows = []
    for label, cell in MAP_ROW.findall(section):
        names = set(MAP_NAME.findall(PARENS.sub("", cell)))  # not what a description names
        if label == "(top)":
            rows += [(name, {name}) for name in sorted(names)]
        else:
            rows.append((label.strip("`"), names))
    return rows


def test_the_module_map_is_drawn_from_the_code():
    """Every room's shared modules as the code has them (of `commands`, its helpers; a module
    named after a registered experiment is that experiment's own), and a row imports only rows
    below it."""
    from test_structure import MODULES, room_graph

    from entropic_bound.plumbing.experiments import EXPERIMENTS

    own = {e.name for e in EXPERIMENTS}
    rows = module_map((ROOT / "docs/design.md").read_text())
    code: dict[str, set[str]] = {}
    for m in MODULES[1:]:  # the package itself first
        _, top, *sub = m.split(".")
        if sub and sub[-1] in own:
            continue
        if sub or (ROOT / "src/entropic_bound" / f"{top}.py").is_file():
            code.setdefault(top, set()).update(sub or [top])
        else:
            code.setdefault(top, set())
    code["commands"] = {m for m in code["commands"] if m.startswith("_")}
    assert dict(rows) == code
    order = [r for r, _ in rows]
    graph = room_graph()
    up = [(r, i) for r in order for i in graph.get(r, ()) if i in order
          and order.index(i) < order.index(r)]
    assert up == []


def test_the_map_check_fails_on_a_stale_row():
    text = "## Module map\n\n| `data` | `teachers` (x), `gone` (y) |\n"
    assert module_map(text) == [("data", {"teachers", "gone"})]
