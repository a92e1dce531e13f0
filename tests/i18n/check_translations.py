#!/usr/bin/env python3
"""How complete each shipped language is, checked against a recorded baseline.

Runs lupdate over the current sources into copies of resources/translations/poolscope_*.ts, so a
string added to the code and missing from a .ts counts as unfinished, like one left untranslated.
Fails when a language has more unfinished strings than its line in the baseline allows
(resources/translations/completeness.tsv; the goal is 0 everywhere), when the table of
languages in docs/translations.md (or in the README) is not the one this check prints, or when a finished
translation does not carry its source's format: the same %1..%99 (with or without L), %n in
the last plural form, an accelerator (&) when the source has one, the same line breaks, and the
same spaces at its ends (" s", " /s": pieces put beside a number).

  check_translations.py --lupdate PATH --sources LIST --ts-dir DIR --baseline FILE --docs FILE
                        [--docs FILE]... [--update] -- LUPDATE_OPTIONS...

--update writes the current counts into the baseline and the table into the docs (after
translating, or after lupdate added strings: the diff shows any language that lost ground).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

# code: (name in English, its own name, direction, where Qt's own dialog strings come from)
LANGUAGES = {
    "en": ("English (source)", "English", "left to right", "Qt itself"),
    "zh_CN": ("Chinese (Simplified)", "简体中文", "left to right",
              "qtbase_zh_CN.qm (qt6-translations-l10n), and ours"),
    "ug": ("Uyghur", "ئۇيغۇرچە", "right to left", "ours (Qt has none)"),
    "pa": ("Punjabi (Gurmukhi)", "ਪੰਜਾਬੀ", "left to right", "ours (Qt has none)"),
    "eo": ("Esperanto", "Esperanto", "left to right", "ours (Qt has none)"),
}
BEGIN, END = "<!-- languages:begin -->", "<!-- languages:end -->"


def count(ts_path):
    """(finished, unfinished, vanished, the keys of its current messages) of a .ts file."""
    finished = unfinished = vanished = 0
    keys = set()
    for context in ET.parse(ts_path).getroot().iter("context"):
        for message in context.iter("message"):
            translation = message.find("translation")
            kind = translation.get("type") if translation is not None else "unfinished"
            if kind in ("vanished", "obsolete"):
                vanished += 1
                continue
            keys.add((context.findtext("name"), message.findtext("source"),
                      message.findtext("comment")))
            forms = translation.findall("numerusform") if translation is not None else []
            texts = [f.text for f in forms] or [translation.text if translation is not None else None]
            if kind == "unfinished" or not all(texts):
                unfinished += 1
            else:
                finished += 1
    return finished, unfinished, vanished, keys


ARGUMENT = re.compile(r"%L?([1-9][0-9]?)")
ACCELERATOR = re.compile(r"&(?!&)[^\s]")


def format_problems(ts_path):
    """What a finished translation of the .ts lost of its source's format, one line each."""
    problems = []
    for context in ET.parse(ts_path).getroot().iter("context"):
        for message in context.iter("message"):
            translation = message.find("translation")
            if translation is None or translation.get("type") is not None:
                continue
            source = message.findtext("source") or ""
            forms = [f.text or "" for f in translation.findall("numerusform")]
            texts = forms or [translation.text or ""]
            where = f"{context.findtext('name')}: {source!r}"
            for index, text in enumerate(texts):
                if not text:
                    continue
                lost = []
                if sorted(ARGUMENT.findall(text)) != sorted(ARGUMENT.findall(source)):
                    lost.append("its %1..%99 differ")
                # A singular form may say "this member" instead of "%n members".
                if "%n" in source and "%n" not in text and (not forms or index == len(forms) - 1):
                    lost.append("%n is missing")
                if ACCELERATOR.search(source) and not ACCELERATOR.search(text):
                    lost.append("the accelerator (&) is missing")
                if text.count("\n") != source.count("\n"):
                    lost.append("the line breaks differ")
                if (len(source) - len(source.lstrip()), len(source) - len(source.rstrip())) != (
                        len(text) - len(text.lstrip()), len(text) - len(text.rstrip())):
                    lost.append("the spaces at its ends differ")
                if lost:
                    problems.append(f"{where} -> {text!r}: {', '.join(lost)}")
    return problems


def measure(args, lupdate_options):
    """Per code: (finished, unfinished, vanished, missing from the committed file), counted
    after lupdate brought a copy of the .ts up to the sources."""
    results = {}
    with tempfile.TemporaryDirectory() as work:
        for code in LANGUAGES:
            committed = os.path.join(args.ts_dir, f"poolscope_{code}.ts")
            if not os.path.exists(committed):
                sys.exit(f"check_translations: {committed} is missing")
            copy = os.path.join(work, os.path.basename(committed))
            shutil.copyfile(committed, copy)
            options = list(lupdate_options) + (["-pluralonly"] if code == "en" else [])
            run = subprocess.run([args.lupdate, "-silent", *options, "@" + args.sources, "-ts", copy],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                sys.exit(f"check_translations: lupdate failed for {code}:\n{run.stdout}{run.stderr}")
            known = count(committed)[3]
            finished, unfinished, vanished, keys = count(copy)
            results[code] = (finished, unfinished, vanished, len(keys - known))
    return results


def read_baseline(path):
    allowed = {}
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 2 or not parts[1].isdigit():
                sys.exit(f"check_translations: {path}:{number}: expected CODE<tab>NUMBER, got {line!r}")
            allowed[parts[0]] = int(parts[1])
    return allowed


def table(results, allowed):
    rows = ["| Language | Code | Writing | Translated | Unfinished allowed | Qt's own dialogs |",
            "|---|---|---|---|---|---|"]
    for code, (english, native, direction, qt) in LANGUAGES.items():
        finished, unfinished = results[code][:2]
        total = finished + unfinished
        percent = 100 * finished // total if total else 100
        what = "plural forms " if code == "en" else ""
        name = english if native == english or code == "en" else f"{native} · {english}"
        rows.append(f"| {name} | `{code}` | {direction} | {what}{finished} of {total} ({percent} %) "
                    f"| {allowed.get(code, 0)} | {qt} |")
    return "\n".join(rows)


def docs_table(path):
    text = open(path, encoding="utf-8").read()
    if BEGIN not in text or END not in text:
        sys.exit(f"check_translations: {path} has no {BEGIN} ... {END} table")
    start = text.index(BEGIN) + len(BEGIN)
    return text, start, text.index(END)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lupdate", required=True)
    parser.add_argument("--sources", required=True, help="the file list lupdate reads (@FILE)")
    parser.add_argument("--ts-dir", required=True)
    parser.add_argument("--baseline", required=True)
    parser.add_argument("--docs", required=True, action="append",
                        help="a file with the table (given once per file: the docs, the README)")
    parser.add_argument("--update", action="store_true")
    parser.add_argument("lupdate_options", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    options = [o for o in args.lupdate_options if o != "--"]

    results = measure(args, options)
    allowed = read_baseline(args.baseline)
    if args.update:
        allowed = {code: results[code][1] for code in LANGUAGES}
        with open(args.baseline, "w", encoding="utf-8") as out:
            out.write("# Unfinished translations each shipped language may have: tests/i18n/"
                      "check_translations.py\n# fails above. Lower only; the goal is 0 "
                      "everywhere (docs/translations.md).\n")
            for code, number in allowed.items():
                out.write(f"{code}\t{number}\n")
    expected = table(results, allowed)
    stale = []
    for docs in args.docs:
        text, start, end = docs_table(docs)
        if args.update:
            with open(docs, "w", encoding="utf-8") as out:
                out.write(text[:start] + "\n" + expected + "\n" + text[end:])
            text, start, end = docs_table(docs)
        if text[start:end].strip() != expected.strip():
            stale.append(docs)

    print(expected)
    failures = []
    for code, (finished, unfinished, vanished, missing) in results.items():
        note = f"{code}: {finished} finished, {unfinished} unfinished"
        if missing:
            note += f" ({missing} missing from the .ts: run the update_translations target)"
        if vanished:
            note += f", {vanished} no longer in the sources"
        print(note)
        if code not in allowed:
            failures.append(f"{code} has no line in {args.baseline}")
        elif unfinished > allowed[code]:
            failures.append(f"{code}: {unfinished} unfinished translations, at most "
                            f"{allowed[code]} allowed: translate them (Qt Linguist), or, for "
                            f"strings just added, record it with --update")
    for code in LANGUAGES:
        for problem in format_problems(os.path.join(args.ts_dir, f"poolscope_{code}.ts")):
            failures.append(f"{code}: {problem}")
    for docs in stale:
        failures.append(f"the table in {docs} is not current: run with --update")
    for failure in failures:
        print("check_translations: " + failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
