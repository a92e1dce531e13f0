#include "RecentRecordings.h"

#include "session/PoolSession.h"
#include "recording/RecordingTypes.h"

#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace poolscope {

namespace {

const QString kSettingsKey = QStringLiteral("recentRecordings");

} // namespace

RecentRecordings::RecentRecordings(PoolSession *session, std::function<void(const QString &)> open,
                                   QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_open(std::move(open))
    , m_menu(new QMenu(tr("Recent recordings"))) {
    connect(m_menu, &QMenu::aboutToShow, this, &RecentRecordings::refresh);
    // Opened from the menu, the Open dialog or --recording: listed once it is shown.
    connect(m_session, &PoolSession::historyLoaded, this, [this] {
        if (m_session->isShowingRecording())
            add(m_session->recordingPath());
    });
    refresh();
}

RecentRecordings::~RecentRecordings() {
    delete m_menu; // a menu put into a menu bar is not owned by it
}

QStringList RecentRecordings::paths() const {
    return QSettings().value(kSettingsKey).toStringList();
}

void RecentRecordings::store(const QStringList &paths) {
    QSettings().setValue(kSettingsKey, paths);
}

void RecentRecordings::add(const QString &path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = paths();
    if (!list.isEmpty() && list.constFirst() == absolute)
        return;
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > kMaxKept)
        list.removeLast();
    store(list);
    refresh();
}

void RecentRecordings::refresh() {
    QStringList kept;
    for (const QString &path : paths()) {
        if (QFileInfo::exists(path))
            kept.append(path);
        else
            m_session->log(LogSeverity::Info, QStringLiteral("recording"),
                           tr("%1 is gone: removed from the recent recordings").arg(path));
    }
    if (kept != paths())
        store(kept);
    m_menu->clear();
    for (int i = 0; i < kept.size(); ++i) {
        const QString &path = kept[i];
        // &1 … &8: chosen by number from the keyboard; the folder in the tooltip.
        QAction *action = m_menu->addAction(tr("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()),
                                            this, [this, path] { m_open(path); });
        action->setToolTip(path);
        action->setData(path);
    }
    if (kept.isEmpty()) {
        m_menu->addAction(tr("No recordings opened yet"))->setEnabled(false);
        return;
    }
    m_menu->addSeparator();
    m_menu->addAction(tr("Clear the list"), this, [this] {
        store({});
        refresh();
    });
}

QString RecentRecordings::startFolder(const QString &directory) {
    const QString folder = directory.isEmpty() ? defaultRecordingDirectory() : directory;
    return QFileInfo(folder).isDir() ? folder : QDir::homePath();
}

} // namespace poolscope
