#include "recording/RecordingLock.h"

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QSysInfo>

namespace poolscope::recordingdetail {

namespace {

using FileKey = std::pair<quint64, quint64>; // device, inode

// The descriptors this process opened to lock recordings, by file. They stay open once opened:
// closing any descriptor of a file drops every POSIX lock the process holds on it, SQLite's own
// included (a reader of the same file in this process would lose them).
struct OpenLock {
    int fd = -1;
    bool held = false;
};

std::mutex &registryMutex() {
    static std::mutex mutex;
    return mutex;
}

std::map<FileKey, OpenLock> &registry() {
    static std::map<FileKey, OpenLock> locks;
    return locks;
}

QString systemError(int code) {
    return QString::fromLocal8Bit(std::strerror(code));
}

QString infoPathOf(const QString &path) {
    const QString real = QFileInfo(path).canonicalFilePath();
    return (real.isEmpty() ? path : real) + QStringLiteral(".lock");
}

// The pid holding the flock() on this file, from /proc/locks (Linux): found through any name.
qint64 lockHolderPid(quint64 device, quint64 inode) {
    QFile locks(QStringLiteral("/proc/locks"));
    if (!locks.open(QIODevice::ReadOnly | QIODevice::Text))
        return 0;
    const QByteArray wanted = QByteArray::number(major(dev_t(device)), 16).rightJustified(2, '0') +
                              ':' +
                              QByteArray::number(minor(dev_t(device)), 16).rightJustified(2, '0') +
                              ':' + QByteArray::number(inode);
    // "1: FLOCK  ADVISORY  WRITE 4656 fe:01:1234 0 EOF"
    // A /proc file says its size is 0: read it whole, not up to atEnd().
    const QList<QByteArray> lines = locks.readAll().split('\n');
    for (const QByteArray &line : lines) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() >= 6 && fields[1] == "FLOCK" && fields[3] == "WRITE" &&
            fields[5] == wanted)
            return fields[4].toLongLong();
    }
    return 0;
}

QString holderDescription(const QString &infoPath, quint64 device, quint64 inode) {
    const qint64 pid = lockHolderPid(device, inode);
    QFile file(infoPath);
    if (file.open(QIODevice::ReadOnly)) {
        const QStringList lines = QString::fromUtf8(file.read(4096)).split(QLatin1Char('\n'));
        bool ok = false;
        const qint64 notedPid = lines.value(0).toLongLong(&ok);
        if (ok && lines.size() >= 3 && (pid == 0 || notedPid == pid)) {
            const QString application = lines.value(1).trimmed();
            return QStringLiteral("%1 (pid %2 on host %3)")
                .arg(application.isEmpty() ? QStringLiteral("another recorder") : application)
                .arg(notedPid)
                .arg(lines.value(2).trimmed());
        }
    }
    // No note beside this name (a hard link, or the holder has not written it yet).
    if (pid > 0)
        return QStringLiteral("another recorder (pid %1 on host %2)")
            .arg(pid)
            .arg(QSysInfo::machineHostName());
    return QStringLiteral("another recorder");
}

QString refusal(const QString &path, const QString &holder) {
    return QStringLiteral("recording %1 is already being written by %2: one recorder per file "
                          "(readers may open it at any time)")
        .arg(path, holder);
}

bool lockFailed(QString *error, const QString &message) {
    if (error)
        *error = message;
    return false;
}

} // namespace

std::unique_ptr<RecordingLock> RecordingLock::acquire(const QString &path, QString *error) {
    const std::lock_guard guard(registryMutex());
    // Files deleted since their writer closed are reachable by no name: let their space go.
    for (auto it = registry().begin(); it != registry().end();) {
        struct stat unused {};
        if (!it->second.held && ::fstat(it->second.fd, &unused) == 0 && unused.st_nlink == 0) {
            ::close(it->second.fd);
            it = registry().erase(it);
        } else {
            ++it;
        }
    }
    const QByteArray native = QFile::encodeName(path);
    struct stat info {};
    OpenLock *entry = nullptr;
    FileKey key;
    if (::stat(native.constData(), &info) == 0) {
        key = {quint64(info.st_dev), quint64(info.st_ino)};
        const auto found = registry().find(key);
        if (found != registry().end())
            entry = &found->second;
    }
    if (!entry) {
        const int fd = ::open(native.constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) {
            const int code = errno;
            lockFailed(error, QStringLiteral("cannot open recording %1 to lock it: %2")
                                  .arg(path, systemError(code)));
            return nullptr;
        }
        if (::fstat(fd, &info) != 0) {
            const int code = errno;
            ::close(fd);
            lockFailed(error,
                       QStringLiteral("cannot lock recording %1: %2").arg(path, systemError(code)));
            return nullptr;
        }
        key = {quint64(info.st_dev), quint64(info.st_ino)};
        auto [found, inserted] = registry().try_emplace(key, OpenLock{fd, false});
        if (!inserted)
            ::close(fd); // created by another thread of ours in between: use its descriptor
        entry = &found->second;
    }
    const QString infoPath = infoPathOf(path);
    if (entry->held) {
        lockFailed(error, refusal(path, QStringLiteral("%1 (pid %2 on host %3)")
                                            .arg(QCoreApplication::applicationName())
                                            .arg(QCoreApplication::applicationPid())
                                            .arg(QSysInfo::machineHostName())));
        return nullptr;
    }
    if (::flock(entry->fd, LOCK_EX | LOCK_NB) != 0) {
        const int code = errno;
        if (code == EWOULDBLOCK)
            lockFailed(error, refusal(path, holderDescription(infoPath, key.first, key.second)));
        else
            lockFailed(error,
                       QStringLiteral("cannot lock recording %1: %2").arg(path, systemError(code)));
        return nullptr;
    }
    // Who holds it, for the message of a refused recorder; written whole or not at all.
    QSaveFile holder(infoPath);
    holder.setDirectWriteFallback(false);
    const QByteArray text = QByteArray::number(QCoreApplication::applicationPid()) + '\n' +
                            QCoreApplication::applicationName().toUtf8() + '\n' +
                            QSysInfo::machineHostName().toUtf8() + '\n';
    if (!holder.open(QIODevice::WriteOnly) || holder.write(text) != text.size() ||
        !holder.commit()) {
        ::flock(entry->fd, LOCK_UN);
        lockFailed(error, QStringLiteral("cannot write the lock file %1 of recording %2: %3")
                              .arg(infoPath, path, holder.errorString()));
        return nullptr;
    }
    entry->held = true;
    std::unique_ptr<RecordingLock> lock(new RecordingLock);
    lock->m_device = key.first;
    lock->m_inode = key.second;
    lock->m_infoPath = infoPath;
    return lock;
}

RecordingLock::~RecordingLock() {
    const std::lock_guard guard(registryMutex());
    QFile::remove(m_infoPath);
    const auto found = registry().find({m_device, m_inode});
    if (found == registry().end())
        return;
    ::flock(found->second.fd, LOCK_UN);
    found->second.held = false;
    // A file deleted meanwhile is reachable by no name: its descriptor may go (and its space).
    struct stat info {};
    if (::fstat(found->second.fd, &info) == 0 && info.st_nlink == 0) {
        ::close(found->second.fd);
        registry().erase(found);
    }
}

} // namespace poolscope::recordingdetail
