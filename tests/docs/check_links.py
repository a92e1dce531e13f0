#!/usr/bin/env python3
"""Checks that every relative link, image and anchor in the documentation resolves.

The pages are read on a code host (GitHub), so a link is checked the way GitHub resolves it:
a path relative to the page (or to the repository root when it starts with "/"), and an anchor
that is the GitHub slug of a heading in the target page (or of the page itself for "#anchor").
Links inside code spans and fenced code blocks are not links and are skipped; so are absolute
URLs (http:, https:, mailto:, ...), which need the network.

Usage: check_links.py [--root DIR] [--pending PATH]... [FILE...]
  --root DIR      the repository (default: two folders up from this script)
  --pending PATH  a page another branch adds: a link to it is accepted while it is missing
                  (with a note), and checked like any other once it exists
  FILE...         the pages to check, relative to the root (default: README.md, docs/*.md,
                  bench/README.md)
Exits 1 naming every broken link (FILE:LINE: ...), 0 when all resolve, 2 on a usage error.
"""
import argparse
import re
import sys
import unicodedata
from pathlib import Path

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CLOSING_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*$")
HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
# A code span: a run of backticks, then anything but a blank line, then the same run.
CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)((?:(?!\n[ \t]*\n).)+?)(?<!`)\1(?!`)", re.DOTALL)
INLINE_LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*(<[^>]*>|[^()\s]+)"
                         r"(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)", re.MULTILINE)
HTML_LINK = re.compile(r"<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*\"([^\"]*)\"", re.IGNORECASE)
HTML_ANCHOR = re.compile(r"<a\b[^>]*?\b(?:name|id)\s*=\s*\"([^\"]+)\"", re.IGNORECASE)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
LINE_ANCHOR = re.compile(r"^L\d+(-L\d+)?$")


def github_slug(text):
    """The anchor GitHub gives a heading: the rendered text lower-cased, every character that is
    not a letter, digit, mark, space, hyphen or underscore removed, spaces turned into hyphens
    (as github-slugger does)."""
    text = CODE_SPAN.sub(lambda m: m.group(2).strip(), text)
    text = re.sub(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)", r"\1", text)  # link -> its text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML tags render as nothing
    kept = []
    for character in text.strip().lower():
        if character in " -_" or unicodedata.category(character)[0] in "LNM":
            kept.append(character)
    return "".join(kept).replace(" ", "-")


def blank_code(text):
    """The text with fenced code blocks and code spans replaced by spaces (line numbers kept),
    and the headings found outside fenced blocks, as (line number, heading text)."""
    lines = text.split("\n")
    headings = []
    fence = None
    for number, line in enumerate(lines):
        match = FENCE.match(line)
        if fence is not None:
            closing = CLOSING_FENCE.match(line)
            if closing and closing.group(1)[0] == fence[0] and len(closing.group(1)) >= len(fence):
                fence = None
            lines[number] = ""
            continue
        if match:
            fence = match.group(1)
            lines[number] = ""
            continue
        heading = HEADING.match(line)
        if heading:
            headings.append((number + 1, heading.group(2) or ""))
    prose = "\n".join(lines)
    prose = CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), prose)
    return prose, headings


class Page:
    def __init__(self, path):
        self.path = path
        self.prose, headings = blank_code(path.read_text(encoding="utf-8"))
        self.anchors = set()
        seen = {}
        for _, heading in headings:
            slug = github_slug(heading)
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            self.anchors.add(slug if count == 0 else f"{slug}-{count}")
        self.anchors.update(HTML_ANCHOR.findall(self.prose))

    def links(self):
        """(line number, target) of every link, image and reference definition."""
        found = []
        for pattern in (INLINE_LINK, REFERENCE_DEFINITION, HTML_LINK):
            for match in pattern.finditer(self.prose):
                target = match.group(match.lastindex)
                if target.startswith("<") and target.endswith(">"):
                    target = target[1:-1]
                line = self.prose.count("\n", 0, match.start(match.lastindex)) + 1
                found.append((line, target))
        return sorted(found)


def check(root, files, pending):
    pages = {}

    def page(path):
        if path not in pages:
            pages[path] = Page(path)
        return pages[path]

    problems = []
    notes = []
    checked = 0
    for name in files:
        source = (root / name).resolve()
        if not source.is_file():
            problems.append(f"{name}: no such page")
            continue
        for line, target in page(source).links():
            if not target or SCHEME.match(target) or target.startswith("//"):
                continue
            checked += 1
            where = f"{name}:{line}"
            path_part, _, anchor = target.partition("#")
            if path_part:
                base = root if path_part.startswith("/") else source.parent
                resolved = (base / path_part.lstrip("/")).resolve()
            else:
                resolved = source
            try:
                relative = resolved.relative_to(root)
            except ValueError:
                problems.append(f"{where}: {target}: outside the repository")
                continue
            if not resolved.exists():
                if relative.as_posix() in pending:
                    notes.append(f"{where}: {target}: pending (another branch adds "
                                 f"{relative.as_posix()})")
                else:
                    problems.append(f"{where}: {target}: {relative.as_posix()} does not exist")
                continue
            if not anchor:
                continue
            if resolved.suffix.lower() == ".md":
                if anchor not in page(resolved).anchors:
                    problems.append(f"{where}: {target}: no heading with the anchor #{anchor} in "
                                    f"{relative.as_posix()}")
            elif not LINE_ANCHOR.match(anchor):
                problems.append(f"{where}: {target}: #{anchor} on a file that is not a page")
    return checked, problems, notes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[2])
    parser.add_argument("--pending", action="append", default=[])
    parser.add_argument("files", nargs="*")
    arguments = parser.parse_args()
    root = arguments.root.resolve()
    if not root.is_dir():
        parser.error(f"--root {root}: not a folder")
    files = arguments.files or (
        ["README.md"] + sorted(p.relative_to(root).as_posix() for p in (root / "docs").glob("*.md"))
        + (["bench/README.md"] if (root / "bench/README.md").is_file() else []))
    checked, problems, notes = check(root, files, set(arguments.pending))
    for note in notes:
        print(f"note: {note}")
    for problem in problems:
        print(problem)
    print(f"check_links: {len(files)} pages, {checked} relative links, {len(problems)} broken")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
