#pragma once

#include <QLabel>
#include <QString>

namespace poolscope {

// A one-line label that never widens its window: text longer than the space it is given is elided
// at the right ("…") after its last word that fits, and the full text is in the tooltip. Its size
// hints ask for little width, so layouts give it what is left rather than growing for it.
class ElidedLabel final : public QLabel {
    Q_OBJECT

public:
    explicit ElidedLabel(QWidget *parent = nullptr);

    void setFullText(const QString &text);
    const QString &fullText() const { return m_fullText; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void updateElided();

    QString m_fullText;
};

} // namespace poolscope
