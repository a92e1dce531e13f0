#pragma once

#include <QByteArray>
#include <QColor>
#include <QHash>
#include <QList>

namespace poolscope {

// One stable colour per member, shared by the chart, its legend and the table. Colours are handed
// out in order of first appearance (each batch sorted by member, so the same pool gets the same
// colours every run): 32 colours picked to read well on white and apart from each other, then
// golden-angle hues.
class MemberColors {
public:
    // Gives every member of the batch that has none yet the next colour.
    void assign(const QList<QByteArray> &members);
    // The member's colour; a member never assigned gets one derived from its name.
    QColor colorFor(const QByteArray &member) const;
    bool contains(const QByteArray &member) const { return m_colors.contains(member); }
    qsizetype size() const { return m_colors.size(); }
    void clear();

    // The n-th colour handed out.
    static QColor colorAt(qsizetype index);

private:
    QHash<QByteArray, QColor> m_colors;
};

} // namespace poolscope
