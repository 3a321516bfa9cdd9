"""The documentation: the reference is the code's (made from it, and equal to what is
committed), every link between the pages leads somewhere, the README stays an overview."""

import re
import sys

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "docs"))
from make_reference import reference  # noqa: E402

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), ROOT / "bench" / "README.md"]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_the_reference_is_made_from_the_code():
    assert (ROOT / "docs" / "reference.md").read_text() == reference(), (
        "after changing a command, a transform argument, a strategy or the Python API: "
        "python3 docs/make_reference.py > docs/reference.md"
    )


def test_the_reference_holds_every_argument_strategy_and_command():
    from orcu.search.registry import STRATEGIES
    from orcu.spec.transform import ARGUMENTS

    text = reference()
    for name in [*ARGUMENTS, *STRATEGIES, "orcu tune", "orcu report", "--budget", "orcu.tune("]:
        assert name in text, name


def anchors(page) -> set[str]:
    """GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces to dashes."""
    headings = re.findall(r"^#+ (.+)$", page.read_text(), re.M)
    return {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-") for h in headings}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_leads_somewhere(page):
    for target in LINK.findall(page.read_text()):
        if "://" in target or target.startswith("mailto:"):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        assert linked.exists(), f"{page.name}: {target}"
        if anchor and linked.suffix == ".md":
            assert anchor in anchors(linked), f"{page.name}: {target}"


def test_the_readme_is_an_overview_and_the_license_is_there():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 200
    assert "BSD 3-Clause License" in (ROOT / "LICENSE").read_text()


def test_no_module_cites_a_page_that_is_not_there():
    for path in (ROOT / "orcu").rglob("*.py"):
        for cited in re.findall(r"\b((?:docs|bench)/[\w/.-]+\.md)", path.read_text()):
            assert (ROOT / cited).exists(), f"{path.relative_to(ROOT)} cites {cited}"
        assert "DESIGN.md" not in path.read_text(), path


def test_every_module_path_the_code_and_docs_name_is_there():
    named = [
        ROOT / "README.md",
        *(ROOT / "docs").rglob("*.md"),
        *(ROOT / "orcu").rglob("*.py"),
        *(ROOT / "templates").rglob("*.j2"),
    ]
    for path in named:
        for cited in re.findall(r"\borcu/[\w/]+\.py\b", path.read_text()):
            assert (ROOT / cited).exists(), f"{path.relative_to(ROOT)} names {cited}"
