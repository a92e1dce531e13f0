#include "actions/TypedConfirmDialog.h"

#include "i18n/LeftToRight.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace poolscope {

TypedConfirmDialog::TypedConfirmDialog(const QString &title, const QString &question,
                                       const QString &expected, QWidget *parent)
    : QDialog(parent)
    , m_expected(expected)
    , m_field(new QLineEdit(this)) {
    setWindowTitle(title);
    setObjectName(QStringLiteral("typedConfirmDialog"));
    auto *text = new QLabel(question, this);
    text->setWordWrap(true);
    auto *prompt = new QLabel(tr("Type the pool's name, %1, to confirm:")
                                  .arg(i18n::leftToRight(QStringLiteral("“%1”").arg(expected))),
                              this);
    prompt->setWordWrap(true);
    prompt->setBuddy(m_field);
    i18n::keepLeftToRight(m_field);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_confirm = buttons->button(QDialogButtonBox::Ok);
    m_confirm->setText(tr("&Confirm"));
    m_confirm->setEnabled(false);
    buttons->button(QDialogButtonBox::Cancel)->setDefault(true);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(text);
    layout->addWidget(prompt);
    layout->addWidget(m_field);
    layout->addWidget(buttons);
    connect(m_field, &QLineEdit::textChanged, this, [this] {
        m_confirm->setEnabled(matches());
        m_confirm->setDefault(matches());
    });
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (matches())
            accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

bool TypedConfirmDialog::matches() const {
    return m_field->text() == m_expected;
}

bool TypedConfirmDialog::ask(QWidget *parent, const QString &title, const QString &question,
                             const QString &expected) {
    TypedConfirmDialog dialog(title, question, expected, parent);
    return dialog.exec() == QDialog::Accepted && dialog.matches();
}

} // namespace poolscope
