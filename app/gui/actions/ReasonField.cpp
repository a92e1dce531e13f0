#include "actions/ReasonField.h"

#include "audit/AuditActor.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace poolscope {

ReasonField::ReasonField(QWidget *parent)
    : QLineEdit(parent) {
    setObjectName(QStringLiteral("reasonEdit"));
    setMaxLength(kMaxAuditReasonLength);
    setPlaceholderText(tr("optional: why, for the pool's audit trail"));
    setToolTip(tr("Recorded with the action in the pool's audit trail, where the team and "
                  "`poolscope-cli audit` read it. Leave empty for none."));
    setAccessibleName(tr("Reason"));
}

QString ReasonField::reason() const {
    return text().trimmed();
}

QString ReasonField::labelText() {
    return tr("&Reason:");
}

std::optional<QString> askWithReason(QWidget *parent, const QString &title,
                                     const QString &question) {
    QDialog dialog(parent);
    dialog.setObjectName(QStringLiteral("reasonQuestion"));
    dialog.setWindowTitle(title);
    auto *text = new QLabel(question, &dialog);
    text->setWordWrap(true);
    text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *reason = new ReasonField(&dialog);
    auto *form = new QFormLayout;
    auto *label = new QLabel(ReasonField::labelText(), &dialog);
    label->setBuddy(reason);
    form->addRow(label, reason);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Yes | QDialogButtonBox::Cancel, &dialog);
    // Enter in the reason field is no yes: the default is Cancel, as in the question it replaces.
    buttons->button(QDialogButtonBox::Cancel)->setDefault(true);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(&dialog);
    layout->addWidget(text);
    layout->addLayout(form);
    layout->addWidget(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    return reason->reason();
}

} // namespace poolscope
