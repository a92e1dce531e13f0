#pragma once

#include "proxylist/Eligibility.h"

#include <memory>

#include <QDialog>
#include <QTimer>

class QPushButton;
class QTreeWidget;

namespace Ui {
class SeedDialog;
}

namespace poolscope {

class ReasonField;

class BackgroundWorker;
struct Failure;
class PoolSession;
struct SeedResult;

// Imports a proxy list (file, paste or drag and drop), previews the accepted and rejected lines
// with reasons, takes the starting count (a number or the pool minimum), warns with the flood
// forecast when new members would start below the pool minimum, then writes through the session
// with a progress bar. Nothing is written before Seed is pressed.
class SeedDialog : public QDialog {
    Q_OBJECT

public:
    explicit SeedDialog(PoolSession *session, QWidget *parent = nullptr);
    ~SeedDialog() override;

    void setText(const QString &text);
    bool loadFile(const QString &path);
    const EligibilityReport &report() const { return m_report; }
    // Accepted members that are not in the pool (or evicted) yet.
    int newMemberCount() const;
    // Parses the list now (normally 150 ms after the last edit): at once when it is small, in the
    // background when it is big (isParsing() until previewUpdated), so the window never freezes.
    void updatePreview();
    bool isParsing() const { return m_parsing; }
    // True when a big file is being used whole while the text box shows only its first lines.
    bool showsExcerpt() const { return !m_fileBytes.isEmpty(); }
    void setStartCount(const QString &text);
    void setStartAtPoolMinimum(bool atMinimum);
    // A non-empty pool preselects its minimum (no flood) until the user picks a count.
    bool startsAtPoolMinimum() const;
    QString forecastText() const;
    QString summaryText() const;
    // The label naming the pool written to (also in the window title).
    QString targetText() const;
    QTreeWidget *acceptedList() const;
    QTreeWidget *rejectedList() const;
    QTreeWidget *duplicatesList() const;
    QPushButton *seedButton() const { return m_seedButton; }
    ReasonField *reasonField() const { return m_reason; }
    bool isSeeding() const { return m_seeding; }

    // Presses Seed: false (with the reason shown) when nothing can be written.
    bool startSeed();

Q_SIGNALS:
    void seedDone(const poolscope::SeedResult &result);
    // The preview (report(), the lists and the summary) now reflects the list.
    void previewUpdated();

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void showReport(const EligibilityReport &report);
    void showCollapsedDuplicates();
    QByteArray listBytes() const;
    void updateControls();
    void updateForecast();
    void preselectStart();
    void handleFinished(const SeedResult &result);
    // Names the pool written to, in the title and a label.
    void showTarget();
    void handleFailure(const QString &operation, const poolscope::Failure &failure);
    void chooseFile();

    PoolSession *m_session;
    std::unique_ptr<Ui::SeedDialog> m_ui;
    QPushButton *m_seedButton;
    ReasonField *m_reason;
    QTimer m_parseTimer;
    QTimer m_relayoutTimer; // the rejected list's wrapped rows, after a column width changed
    EligibilityReport m_report;
    QByteArray m_fileBytes; // a big file's content; the text box shows its first lines only
    // Big lists are parsed on it; a parse applies only if no newer one started (its generation).
    std::unique_ptr<BackgroundWorker> m_parser;
    qsizetype m_parsingBytes = 0;
    bool m_parsing = false;
    bool m_seeding = false;
    bool m_refreshListAfterSeed = false;
    bool m_startChoiceMade = false; // the user (or a caller) chose count or minimum
};

} // namespace poolscope
