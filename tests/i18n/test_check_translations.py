#!/usr/bin/env python3
"""The completeness check's own cases, on a tiny source file with real lupdate runs: complete
languages pass, an unfinished or a missing string fails, a stale table in the docs fails,
--update records the counts, and a finished translation that dropped a %1 fails.
Usage: test_check_translations.py LUPDATE"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "check_translations.py")
CODES = ["en", "zh_CN", "ug", "pa", "eo"]
SOURCE = """#include <QObject>
class Panel : public QObject {
    Q_OBJECT
    void build() { tr("Members"); %s}
};
"""


def ts(code, finished, seconds=None):
    translation = '<translation>x</translation>' if finished else '<translation type="unfinished"></translation>'
    extra = "" if seconds is None else (
        f'<message><source>%1 s</source><translation>{seconds}</translation></message>')
    body = "" if code == "en" else (
        f'<context><name>Panel</name><message><source>Members</source>{translation}</message>'
        f'{extra}</context>')
    return f'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n<TS version="2.1" language="{code}">{body}</TS>\n'


def run(work, lupdate, *extra):
    args = [sys.executable, CHECK, "--lupdate", lupdate, "--sources", os.path.join(work, "sources.lst"),
            "--ts-dir", work, "--baseline", os.path.join(work, "baseline.tsv"),
            "--docs", os.path.join(work, "docs.md"), *extra, "--", "-locations", "none"]
    return subprocess.run(args, capture_output=True, text=True)


def setup(work, extra_source="", unfinished=(), seconds=None):
    with open(os.path.join(work, "panel.cpp"), "w") as f:
        f.write(SOURCE % extra_source)
    with open(os.path.join(work, "sources.lst"), "w") as f:
        f.write(os.path.join(work, "panel.cpp") + "\n")
    for code in CODES:
        with open(os.path.join(work, f"poolscope_{code}.ts"), "w", encoding="utf-8") as f:
            kept = None if seconds is None else seconds.get(code, "%1 x")
            f.write(ts(code, code not in unfinished, kept))


def main():
    lupdate = sys.argv[1]
    failures = []

    def expect(name, result, code, text=""):
        if result.returncode != code or text not in result.stdout + result.stderr:
            failures.append(f"{name}: exit {result.returncode}, wanted {code} and {text!r}\n"
                            f"{result.stdout}{result.stderr}")

    with tempfile.TemporaryDirectory() as work:
        setup(work)
        with open(os.path.join(work, "docs.md"), "w") as f:
            f.write("<!-- languages:begin -->\n<!-- languages:end -->\n")
        open(os.path.join(work, "baseline.tsv"), "w").write("")
        expect("no baseline", run(work, lupdate), 1, "has no line in")
        expect("update", run(work, lupdate, "--update"), 0, "1 of 1 (100 %)")
        expect("complete", run(work, lupdate), 0)
        setup(work, unfinished=("ug",))
        expect("one unfinished", run(work, lupdate), 1, "ug: 1 unfinished translations, at most 0")
        setup(work, extra_source='tr("Events"); ')
        expect("a string missing from the .ts", run(work, lupdate), 1,
               "1 missing from the .ts")
        expect("recorded", run(work, lupdate, "--update"), 0, "1 of 2 (50 %)")
        setup(work)
        expect("a stale table", run(work, lupdate), 1, "is not current")
        setup(work, extra_source='tr("%1 s"); ', seconds={"ug": "x"})
        expect("a dropped %1", run(work, lupdate, "--update"), 1,
               "ug: Panel: '%1 s' -> 'x': its %1..%99 differ")
        setup(work, extra_source='tr("%1 s"); ', seconds={})
        expect("a kept %1", run(work, lupdate), 0)
    for failure in failures:
        print("test_check_translations: " + failure, file=sys.stderr)
    print(f"test_check_translations: {9 - len(failures)} of 9 cases pass")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
