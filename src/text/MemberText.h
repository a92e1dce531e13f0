#pragma once

#include <QByteArray>
#include <QString>

namespace poolscope {

// How a member name (or key), which Redis keeps as arbitrary bytes, is shown as text: one line,
// nothing lost, two different names never shown alike.
//   - valid, printable UTF-8 is kept as is;
//   - '\' becomes "\\", newline "\n", tab "\t", carriage return "\r";
//   - every other byte of a control character (C0, DEL, C1) or of invalid UTF-8 becomes "\xNN"
//     (two lower-case hex digits).
// The CLI uses it for text and, unchanged, as the JSON string (so JSON keys such as per_member
// stay distinct). Command-line arguments are taken as the bytes given, not unescaped.
QString memberText(const QByteArray &member);

// A key as error messages show it: "proxies", in quotes.
inline QString quotedKey(const QByteArray &key) {
    return QStringLiteral("\"%1\"").arg(QString::fromUtf8(key));
}

} // namespace poolscope
