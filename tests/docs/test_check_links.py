#!/usr/bin/env python3
"""check_links.py on small documentation trees made for each case: it passes on links that
resolve and fails, naming the page and line, on each kind of broken link."""
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from check_links import github_slug  # noqa: E402

GOOD_README = """# Project

![shot](docs/shots/a.png) and [the guide](docs/guide.md#tls-rediss), [below](#the-section),
[again](#the-section-1), [a line](src/main.c#L3), [a folder](docs/shots/) and
[a split
link](docs/guide.md). External links are not followed: [site](https://example.org/x).

## The section

Code is not a link: `[x](missing.md)`, nor is a span that wraps `[y](
missing.md)`.

```sh
[z](missing.md)
```

## The section
"""

GOOD_GUIDE = """# Guide

## TLS (`rediss://`)

Back to the [README](../README.md#project) and to [itself](guide.md#guide).

~~~
# Not a heading
~~~
"""


class CheckLinks(unittest.TestCase):
    def tree(self, files):
        root = Path(tempfile.mkdtemp(prefix="check-links-"))
        self.addCleanup(subprocess.run, ["rm", "-rf", str(root)])
        for name, text in files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        return root

    def good(self, **changes):
        files = {"README.md": GOOD_README, "docs/guide.md": GOOD_GUIDE, "docs/shots/a.png": "",
                 "src/main.c": ""}
        files.update(changes)
        return files

    def run_checker(self, root, *arguments):
        return subprocess.run([sys.executable, str(HERE / "check_links.py"), "--root", str(root),
                               *arguments], capture_output=True, text=True)

    def test_links_that_resolve_pass(self):
        result = self.run_checker(self.tree(self.good()))
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("2 pages, 9 relative links, 0 broken", result.stdout)

    def test_broken_links_fail_naming_page_and_line(self):
        cases = [
            ("missing page", "See [it](docs/gone.md).\n", "README.md:3: docs/gone.md: "
             "docs/gone.md does not exist"),
            ("missing image", "![x](docs/shots/b.png)\n", "README.md:3: docs/shots/b.png: "
             "docs/shots/b.png does not exist"),
            ("missing anchor", "[x](docs/guide.md#tls)\n", "README.md:3: docs/guide.md#tls: no "
             "heading with the anchor #tls in docs/guide.md"),
            ("anchor on this page", "[x](#nowhere)\n", "README.md:3: #nowhere: no heading"),
            ("heading inside a code block", "[x](docs/guide.md#not-a-heading)\n",
             "README.md:3: docs/guide.md#not-a-heading: no heading"),
            ("third duplicate", "[x](#the-section-2)\n", "README.md:3: #the-section-2: no heading"),
            ("anchor on a file", "[x](src/main.c#main)\n", "#main on a file that is not a page"),
            ("outside the repository", "[x](../elsewhere.md)\n", "README.md:3: ../elsewhere.md: "
             "outside the repository"),
            ("wrong case", "[x](docs/Guide.md)\n", "docs/Guide.md does not exist"),
        ]
        for name, link, expected in cases:
            with self.subTest(name):
                readme = GOOD_README.replace("\n\n![shot]", "\n\n" + link + "![shot]", 1)
                result = self.run_checker(self.tree(self.good(**{"README.md": readme})))
                self.assertEqual(result.returncode, 1, result.stdout)
                self.assertIn(expected, result.stdout)
                self.assertIn("1 broken", result.stdout)

    def test_pending_page_is_accepted_while_missing_and_checked_once_it_exists(self):
        readme = GOOD_README + "\n[Architecture](docs/ARCHITECTURE.md#targets)\n"
        missing = self.run_checker(self.tree(self.good(**{"README.md": readme})),
                                   "--pending", "docs/ARCHITECTURE.md")
        self.assertEqual(missing.returncode, 0, missing.stdout)
        self.assertIn("pending (another branch adds docs/ARCHITECTURE.md)", missing.stdout)
        not_pending = self.run_checker(self.tree(self.good(**{"README.md": readme})))
        self.assertEqual(not_pending.returncode, 1, not_pending.stdout)
        present = self.tree(self.good(**{"README.md": readme,
                                         "docs/ARCHITECTURE.md": "# Architecture\n"}))
        wrong_anchor = self.run_checker(present, "--pending", "docs/ARCHITECTURE.md")
        self.assertEqual(wrong_anchor.returncode, 1, wrong_anchor.stdout)
        self.assertIn("no heading with the anchor #targets", wrong_anchor.stdout)

    def test_github_slugs(self):
        # Anchors as GitHub gives them to these headings (github-slugger's rules).
        cases = {
            "TLS (`rediss://`)": "tls-rediss",
            "SSH tunnels (`--ssh`)": "ssh-tunnels---ssh",
            "Redis Cluster (`redis+cluster://`)": "redis-cluster-rediscluster",
            "All pools at a glance: `poolscope-cli pools` and the Pools panel":
                "all-pools-at-a-glance-poolscope-cli-pools-and-the-pools-panel",
            "`throughput.sh`: poolscope's load runner next to redis-benchmark":
                "throughputsh-poolscopes-load-runner-next-to-redis-benchmark",
            "The dashboard's own cost": "the-dashboards-own-cost",
            "URLs, timeouts and exit codes": "urls-timeouts-and-exit-codes",
            "Proxy-list parser memory": "proxy-list-parser-memory",
            "A [linked](x.md) *word* and **bold**": "a-linked-word-and-bold",
            "Größe – été 1,000 × 2": "größe--été-1000--2",
        }
        for heading, slug in cases.items():
            with self.subTest(heading):
                self.assertEqual(github_slug(heading), slug)


if __name__ == "__main__":
    unittest.main(verbosity=2)
