#pragma once

// The whole window on one session against a real redis-server, for the controls' tests, and a
// user's answer to the next question box.
#include "actions/PoolActions.h"
#include "connection/ConnectionBar.h"
#include "MainWindow.h"
#include "members/MembersPanel.h"
#include "members/PoolTableModel.h"
#include "session/PoolSession.h"

#include "RedisFixture.h"

#include <chrono>

#include <QApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTimer>

namespace poolscope::testing {

inline const QByteArray kKey = "proxies";

struct Dashboard {
    PoolSession session;
    MainWindow window{&session};

    bool connectTo(RedisFixture &redis, const QByteArray &key = kKey) {
        session.setPollInterval(std::chrono::milliseconds(100));
        QSignalSpy observed(&session, &PoolSession::observationApplied);
        session.connectTo(redis.endpoint(), key);
        return observed.wait(10000);
    }
    MembersPanel *members() const { return window.membersPanel(); }
    PoolActions *actions() const { return window.actions(); }
    ConnectionBar *bar() const { return window.connectionBar(); }
    QStringList shownOrder() const {
        QStringList order;
        const QSortFilterProxyModel *proxy = members()->proxyModel();
        for (int r = 0; r < proxy->rowCount(); ++r)
            order << proxy->index(r, 0).data(PoolTableModel::MemberRole).toString();
        return order;
    }
    double shownCount(const QByteArray &member) const {
        const int row = members()->model()->rowOf(member);
        return row < 0 ? -1 : members()->model()->rowAt(row).count;
    }
    // Waits until the table has taken at least `polls` more polls.
    bool waitPolls(int polls) {
        QSignalSpy refreshed(members(), &MembersPanel::refreshed);
        while (refreshed.count() < polls)
            if (!refreshed.wait(5000))
                return false;
        return true;
    }
};

inline QString saveShot(QWidget *widget, const QString &name) {
    QCoreApplication::sendPostedEvents(); // pending layouts (a toolbar item just shown)
    QCoreApplication::processEvents();
    const QString path =
        QDir::temp().filePath(QStringLiteral("poolscope-controls-%1.png").arg(name));
    widget->grab().save(path);
    return path;
}

// Answers the next modal QMessageBox (as a user would) once it is up: records its text and
// presses the button with the given role. Returns immediately; call before the modal opens.
inline void answerNextMessageBox(QString *text, QMessageBox::StandardButton button) {
    // Polls for the box from inside its own event loop; the timer (owned by the application, so
    // never leaked) goes once it has answered.
    auto *poll = new QTimer(QCoreApplication::instance());
    poll->setInterval(20);
    QObject::connect(poll, &QTimer::timeout, poll, [poll, text, button] {
        QWidget *modal = QApplication::activeModalWidget();
        if (!modal)
            return;
        poll->stop();
        poll->deleteLater();
        if (auto *box = qobject_cast<QMessageBox *>(modal)) {
            *text = box->text();
            box->button(button)->click();
            return;
        }
        // The eviction's question with its reason field: the same buttons.
        *text = modal->findChild<QLabel *>()->text();
        modal->findChild<QDialogButtonBox *>()
            ->button(QDialogButtonBox::StandardButton(int(button)))
            ->click();
    });
    poll->start();
}

} // namespace poolscope::testing
