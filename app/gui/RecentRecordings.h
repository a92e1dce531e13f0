#pragma once

#include <functional>

#include <QObject>
#include <QString>
#include <QStringList>

class QMenu;

namespace poolscope {

class PoolSession;

// File ▸ Recent recordings: the last recordings shown (most recent first, at most kMaxKept), kept
// in QSettings. A file gone since is dropped from the list when the menu opens, with a note in
// the events.
class RecentRecordings : public QObject {
    Q_OBJECT

public:
    static constexpr int kMaxKept = 8;

    // open: what choosing an entry does (MainWindow::openRecording).
    RecentRecordings(PoolSession *session, std::function<void(const QString &)> open,
                     QObject *parent = nullptr);
    ~RecentRecordings() override;

    QMenu *menu() const { return m_menu; }
    QStringList paths() const;
    void add(const QString &path);
    // Drops the files that are gone (a note for each) and lists the others.
    void refresh();

    // Where File ▸ Open recording… starts: the recordings folder (directory, or the default
    // one when empty), or the home folder while no recording was ever made.
    static QString startFolder(const QString &directory);

private:
    void store(const QStringList &paths);

    PoolSession *m_session;
    std::function<void(const QString &)> m_open;
    QMenu *m_menu;
};

} // namespace poolscope
