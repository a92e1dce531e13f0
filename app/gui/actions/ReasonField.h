#pragma once

#include <optional>

#include <QLineEdit>

namespace poolscope {

// The optional "why" of a seed, an eviction or a restore, for the pool's audit trail: one line,
// at most as long as the trail takes, empty for none.
class ReasonField : public QLineEdit {
    Q_OBJECT

public:
    explicit ReasonField(QWidget *parent = nullptr);
    // The text without surrounding blanks.
    QString reason() const;
    // The label to put before it ("&Reason:").
    static QString labelText();
};

// A yes-or-cancel question with a reason field under it: the reason typed (maybe empty) on yes,
// nullopt on cancel.
std::optional<QString> askWithReason(QWidget *parent, const QString &title,
                                     const QString &question);

} // namespace poolscope
