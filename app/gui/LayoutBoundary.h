#pragma once

#include <QPointer>
#include <QWidget>

namespace poolscope {

// Holds one widget and keeps its layout requests from reaching the window's layout when they would
// change nothing there. A label whose text changes every poll (a round trip, a poll's age) has the
// whole main window laid out again, docks and all, each time it changes its width by a pixel; the
// boundary asks its parent for room only when the content needs more than it was given so far, and
// lays the content out inside what it has otherwise. shrinkToContent() gives back the room the
// content no longer needs (when what it shows changed for good, another server say).
class LayoutBoundary final : public QWidget {
    Q_OBJECT

public:
    explicit LayoutBoundary(QWidget *content, QWidget *parent = nullptr);

    QWidget *content() const { return m_content; }
    void shrinkToContent();

    QSize sizeHint() const override { return m_hint; }
    QSize minimumSizeHint() const override { return m_minimum; }
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;

protected:
    bool event(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    // Takes the content's hints, growing the ones asked of the parent; true when they grew.
    bool takeContentHints();

    QPointer<QWidget> m_content;
    QSize m_hint;
    QSize m_minimum;
};

} // namespace poolscope
