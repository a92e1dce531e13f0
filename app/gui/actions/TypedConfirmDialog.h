#pragma once

#include <QDialog>

class QLineEdit;
class QPushButton;

namespace poolscope {

// A question answered by typing a name (the pool's, on production): its OK button is enabled only
// while the field holds exactly that name, so a habit of pressing Enter cannot say yes.
class TypedConfirmDialog : public QDialog {
    Q_OBJECT

public:
    TypedConfirmDialog(const QString &title, const QString &question, const QString &expected,
                       QWidget *parent = nullptr);

    QLineEdit *field() const { return m_field; }
    QPushButton *confirmButton() const { return m_confirm; }
    bool matches() const;

    // Runs the dialog modally: true when the name was typed and confirmed.
    static bool ask(QWidget *parent, const QString &title, const QString &question,
                    const QString &expected);

private:
    QString m_expected;
    QLineEdit *m_field;
    QPushButton *m_confirm;
};

} // namespace poolscope
