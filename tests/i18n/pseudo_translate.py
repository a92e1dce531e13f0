#!/usr/bin/env python3
"""Writes a pseudo translation: every source text of a .ts, marked as translated.

Each <source> becomes ⟦source⟧ (U+27E6, U+27E7): %1, %n, & accelerators and rich text stay
intact inside. A dashboard running with the compiled file shows every string that went through
Qt's translation system between the marks; tests/gui/tst_translatable looks for the text that
does not. QT_LAYOUT_DIRECTION keeps "LTR".

Usage: pseudo_translate.py TEMPLATE.ts OUT.ts   (TEMPLATE: made by lupdate from the sources)
"""
import sys
import xml.etree.ElementTree as ET

OPEN, CLOSE = "\u27e6", "\u27e7"


def main():
    template, out = sys.argv[1], sys.argv[2]
    tree = ET.parse(template)
    root = tree.getroot()
    root.set("language", "en")  # two plural forms
    count = 0
    for message in root.iter("message"):
        source = message.findtext("source") or ""
        translation = message.find("translation")
        if translation is None:
            translation = ET.SubElement(message, "translation")
        translation.attrib.clear()
        for form in list(translation):
            translation.remove(form)
        marked = "LTR" if source == "QT_LAYOUT_DIRECTION" else OPEN + source + CLOSE
        if message.get("numerus") == "yes":
            translation.text = None
            for _ in range(2):
                ET.SubElement(translation, "numerusform").text = marked
        else:
            translation.text = marked
        count += 1
    tree.write(out, encoding="utf-8", xml_declaration=True)
    print(f"pseudo_translate: {count} messages marked in {out}")


if __name__ == "__main__":
    main()
