#pragma once

#include "endpoint/Endpoint.h"
#include "monitor/PoolMonitor.h"

#include <chrono>
#include <optional>

#include <QByteArray>
#include <QStringList>
#include <QToolBar>

class QAction;
class QComboBox;
class QLabel;

namespace poolscope {

// The connection toolbar: Redis URL (a password is shown masked and never saved), pool key
// (offering the sorted sets found on the server), connect/disconnect, poll interval and pause.
// Recent connections are kept in QSettings without passwords.
class ConnectionBar : public QToolBar {
    Q_OBJECT

public:
    explicit ConnectionBar(QWidget *parent = nullptr);
    ~ConnectionBar() override;

    // Fills the fields (e.g. from the command line) without connecting.
    void setTarget(const Endpoint &endpoint, const QByteArray &poolKey);
    // What Connect would connect to now; nullopt (and *error) when the URL does not parse.
    std::optional<Endpoint> currentEndpoint(QString *error = nullptr) const;
    QByteArray currentKey() const;
    std::chrono::milliseconds pollInterval() const;
    void setPollInterval(std::chrono::milliseconds interval);

    void setConnectionState(ConnectionState state);
    void setPoolKeys(const QStringList &keys);
    // Remembers a successful connection (URL without password, key).
    void rememberConnection(const Endpoint &endpoint, const QByteArray &poolKey);
    // Remembers the URL (without password) of a server that answered.
    void rememberUrl(const Endpoint &endpoint);
    // Remembers a key that was read as a pool (never typos, missing keys or other types).
    void rememberPoolKey(const QByteArray &poolKey);
    // What the dashboard watches now: the fields show it (also when something else than the bar,
    // e.g. the count-reset scenario, switched pools), and the fields asking for it again (Enter,
    // leaving the key field, picking the same key) do not reconnect.
    void setWatchedTarget(const Endpoint &endpoint, const QByteArray &poolKey);
    // The server refused the credentials: the URL field gets the focus with the cursor where the
    // password goes, and a prompt says so, until the next connect.
    void askForPassword(const Endpoint &endpoint, const QString &reason);
    QString passwordPrompt() const;
    QStringList recentUrls() const;

    QAction *connectAction() const { return m_connect; }
    QAction *pauseAction() const { return m_pause; }
    // Ctrl+L: to the Redis address field, its text selected (as a browser's address bar).
    QAction *focusAddressAction() const { return m_focusAddress; }
    QAction *findKeysAction() const { return m_findKeys; }
    QComboBox *urlBox() const { return m_url; }
    QComboBox *keyBox() const { return m_key; }
    QComboBox *intervalBox() const { return m_interval; }

    // Connects to what the fields say (Enter in a field does the same).
    void requestConnect();
    // Off for the embedded server: its socket lives in a temporary directory.
    void setRememberConnections(bool remember) { m_rememberConnections = remember; }

Q_SIGNALS:
    void connectRequested(const poolscope::Endpoint &endpoint, const QByteArray &poolKey);
    void disconnectRequested();
    void pollIntervalChanged(std::chrono::milliseconds interval);
    void pauseToggled(bool paused);
    void poolKeysRequested();
    void urlRejected(const QString &error);

private:
    void loadRecent();
    void keyActivated();
    bool isWatched(const Endpoint &endpoint, const QByteArray &poolKey) const;
    void clearPasswordPrompt();

    QComboBox *m_url;
    QComboBox *m_key;
    QComboBox *m_interval;
    QAction *m_connect;
    QAction *m_pause;
    QAction *m_findKeys;
    QAction *m_focusAddress;
    // The endpoint behind a masked URL: typing a URL with a password replaces the text by its
    // masked form, and Connect then uses this.
    std::optional<Endpoint> m_maskedEndpoint;
    // The target's settings that a URL cannot hold (--tls-* files and checks, the sentinel
    // password, the --ssh tunnel): typed URLs get them too, also after a refused password.
    Endpoint m_carried;
    QString m_maskedText;
    std::optional<Endpoint> m_watchedEndpoint;
    QByteArray m_watchedKey;
    QLabel *m_prompt;
    QAction *m_promptAction = nullptr;
    ConnectionState m_state = ConnectionState::Disconnected;
    bool m_rememberConnections = true;
};

} // namespace poolscope
