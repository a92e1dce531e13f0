#!/usr/bin/env python3
"""Fills a language's .ts with Qt's own translations of the Qt strings it lists.

resources/translations/qt_strings.cpp lists the strings of Qt's dialogs and widgets that the
dashboard shows, under Qt's own contexts (QPlatformTheme, QFileDialog, ...). For a language that
Qt translates (qt6-translations-l10n: /usr/share/qt6/translations/qtbase_<code>.qm), this copies
Qt's translations of those strings into resources/translations/poolscope_<code>.ts, marked done,
so every string of a window reads the same as Qt's own dialogs. Strings that are shortcuts
("Alt+Left") keep their source text: a translated key name is no shortcut. Run lupdate afterwards
(cmake --build build --target update_translations) to write the file back in lupdate's layout.

Usage: scripts/import-qt-translations.py CODE [--qt-dir DIR] [--lconvert PATH]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHORTCUTS = {"Alt+Left", "Alt+Right", "Alt+Up"}


def qt_translations(qm, lconvert):
    with tempfile.TemporaryDirectory() as work:
        ts = os.path.join(work, "qt.ts")
        subprocess.run([lconvert, "-i", qm, "-o", ts], check=True)
        found = {}
        for context in ET.parse(ts).getroot().iter("context"):
            name = context.findtext("name")
            for message in context.iter("message"):
                translation = message.find("translation")
                if translation is not None and translation.text:
                    found[(name, message.findtext("source"))] = translation.text
        return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("code")
    parser.add_argument("--qt-dir", default="/usr/share/qt6/translations")
    parser.add_argument("--lconvert", default="/usr/lib/qt6/bin/lconvert")
    args = parser.parse_args()
    qm = os.path.join(args.qt_dir, f"qtbase_{args.code}.qm")
    if not os.path.exists(qm):
        sys.exit(f"import-qt-translations: no {qm}: Qt has no translation for {args.code}")
    ours = os.path.join(TOP, "resources", "translations", f"poolscope_{args.code}.ts")
    tree = ET.parse(ours)
    theirs = qt_translations(qm, args.lconvert)
    filled = 0
    for context in tree.getroot().iter("context"):
        name = context.findtext("name")
        for message in context.iter("message"):
            source = message.findtext("source")
            translation = message.find("translation")
            text = source if source in SHORTCUTS else theirs.get((name, source))
            if text is None or translation is None or translation.get("type") != "unfinished":
                continue
            translation.text = text
            del translation.attrib["type"]
            filled += 1
    tree.write(ours, encoding="utf-8", xml_declaration=True)
    print(f"import-qt-translations: {filled} of Qt's translations copied into {ours}")


if __name__ == "__main__":
    main()
