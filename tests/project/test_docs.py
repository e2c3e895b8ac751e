"""The documentation holds together: the README stays an overview (at most
12 KB; the reference is in docs/), and every relative link in README.md and
docs/*.md names a file that exists and, with a ``#fragment``, a heading of
that file.  Reads text only: no toolchain, well under a second."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = []  # no toolchain, no gdb: seconds (make check)

REPO = Path(__file__).resolve().parents[2]
README_LIMIT = 12 * 1024
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def prose(path: Path) -> list[str]:
    """The lines of `path` outside fenced code blocks."""
    lines, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def anchors(path: Path) -> set[str]:
    """The fragments GitHub gives the headings of `path`: lower case,
    punctuation dropped, spaces as hyphens, repeats numbered."""
    seen: dict[str, int] = {}
    result = set()
    for line in prose(path):
        heading = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not heading:
            continue
        slug = re.sub(r"[^\w\- ]", "", heading.group(1).lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        result.add(slug if count == 0 else f"{slug}-{count}")
    return result


def links(path: Path) -> list[str]:
    """The relative link targets of `path` (no scheme, no mail address)."""
    return [
        target for line in prose(path) for target in LINK.findall(line) if not re.match(r"[a-z][a-z0-9+.-]*:", target)
    ]


def test_the_readme_is_an_overview():
    size = len((REPO / "README.md").read_bytes())
    assert size <= README_LIMIT, f"README.md is {size} bytes; move reference text into docs/"


def test_the_readme_links_every_page_of_docs():
    linked = {(REPO / target.partition("#")[0]).resolve() for target in links(REPO / "README.md")}
    unlinked = [page.name for page in PAGES[1:] if page.resolve() not in linked]
    assert PAGES[1:] and not unlinked, f"docs/ pages the README does not link: {unlinked}"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(REPO)))
def test_every_relative_link_resolves(page):
    broken = []
    for target in links(page):
        file_part, _, fragment = target.partition("#")
        destination = (page.parent / file_part).resolve() if file_part else page
        if not destination.exists():
            broken.append(f"{target}: no such file")
        elif fragment and destination.suffix == ".md" and fragment not in anchors(destination):
            broken.append(f"{target}: no heading #{fragment} in {destination.name}")
    assert not broken, f"{page.relative_to(REPO)}: " + "; ".join(broken)


def test_the_anchor_rule_matches_githubs(tmp_path):
    """Headings of the kinds the pages use, with the fragments GitHub makes."""
    page = tmp_path / "page.md"
    page.write_text(
        "# `gpusym query`\n## JSON (schema 1; fields are only ever added)\n"
        "```\n# not a heading\n```\n## Device code: the headers\n## `gpusym query`\n",
        encoding="utf-8",
    )
    assert anchors(page) == {
        "gpusym-query",
        "json-schema-1-fields-are-only-ever-added",
        "device-code-the-headers",
        "gpusym-query-1",
    }
