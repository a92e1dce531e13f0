#include "connection/ConnectionBar.h"

#include "i18n/LeftToRight.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSettings>

namespace poolscope {

namespace {

const QString kRecentUrls = QStringLiteral("connection/recentUrls");
const QString kRecentKeys = QStringLiteral("connection/recentKeys");
const QString kInterval = QStringLiteral("connection/pollIntervalMs");
constexpr int kMaxRecent = 10;

QStringList prepend(QStringList list, const QString &item) {
    list.removeAll(item);
    list.prepend(item);
    while (list.size() > kMaxRecent)
        list.removeLast();
    return list;
}

} // namespace

ConnectionBar::ConnectionBar(QWidget *parent)
    : QToolBar(tr("Connection"), parent)
    , m_url(new QComboBox(this))
    , m_key(new QComboBox(this))
    , m_interval(new QComboBox(this))
    , m_connect(new QAction(tr("Connect"), this))
    , m_pause(new QAction(tr("Pause"), this))
    , m_findKeys(new QAction(tr("Find pools"), this))
    , m_focusAddress(new QAction(tr("Go to the Redis address"), this))
    , m_prompt(new QLabel(this)) {
    setObjectName(QStringLiteral("connectionBar"));
    setMovable(false);

    m_url->setEditable(true);
    m_url->setInsertPolicy(QComboBox::NoInsert);
    m_url->setMinimumContentsLength(34);
    m_url->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_url->lineEdit()->setPlaceholderText(QStringLiteral("redis://host:6379/0"));
    i18n::keepLeftToRight(m_url->lineEdit()); // URLs and keys read left to right in any language
    m_url->setToolTip(tr("Redis URL: redis://[user[:password]@]host[:port][/db] or "
                         "unix:///path/to/redis.sock. A password is shown masked and "
                         "never saved."));
    m_key->setEditable(true);
    m_key->setInsertPolicy(QComboBox::NoInsert);
    m_key->setMinimumContentsLength(14);
    m_key->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_key->lineEdit()->setPlaceholderText(tr("pool key"));
    i18n::keepLeftToRight(m_key->lineEdit());
    m_key->setToolTip(tr("The pool's sorted-set key. The list offers the sorted sets "
                         "found on the server (Find pools)."));
    for (int ms : {250, 500, 1000, 2000, 5000, 10000})
        m_interval->addItem(ms < 1000 ? tr("%1 ms").arg(QLocale().toString(ms))
                                      : tr("%1 s").arg(QLocale().toString(ms / 1000)),

                            ms);
    m_interval->setToolTip(tr("How often the pool is read. Each read is a few short "
                              "commands; see the status bar for its round-trip time."));

    m_connect->setToolTip(tr("Connect to the Redis server and watch the pool"));
    m_pause->setCheckable(true);
    // Not Space: as a window shortcut it took Space from every focused button and check box.
    m_pause->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Space));
    m_pause->setToolTip(tr("Pause or resume polling (Ctrl+Shift+Space). Writes still work."));
    m_focusAddress->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    m_focusAddress->setShortcutContext(Qt::WindowShortcut);
    connect(m_focusAddress, &QAction::triggered, this, [this] {
        m_url->setFocus(Qt::ShortcutFocusReason);
        m_url->lineEdit()->selectAll();
    });
    m_pause->setEnabled(false);
    m_findKeys->setToolTip(tr("Look for sorted-set keys on the server (a bounded SCAN "
                              "with TYPE zset) and offer them in the key list"));
    m_findKeys->setEnabled(false);

    m_prompt->setObjectName(QStringLiteral("passwordPrompt"));
    m_prompt->setStyleSheet(QStringLiteral("color: #b71c1c; font-weight: bold;"));
    // Buddies: Alt+R goes to the address, Alt+O to the pool key.
    auto *urlLabel = new QLabel(tr(" &Redis "), this);
    urlLabel->setBuddy(m_url);
    addWidget(urlLabel);
    addWidget(m_url);
    m_promptAction = addWidget(m_prompt);
    m_promptAction->setVisible(false);
    auto *keyLabel = new QLabel(tr("  P&ool "), this);
    keyLabel->setBuddy(m_key);
    addWidget(keyLabel);
    addWidget(m_key);
    addAction(m_findKeys);
    addAction(m_connect);
    addSeparator();
    addWidget(new QLabel(tr(" Poll every "), this));
    addWidget(m_interval);
    addAction(m_pause);

    loadRecent();

    connect(m_connect, &QAction::triggered, this, [this] {
        if (m_state != ConnectionState::Disconnected)
            Q_EMIT disconnectRequested();
        else
            requestConnect();
    });
    connect(m_pause, &QAction::toggled, this, [this](bool paused) {
        m_pause->setText(paused ? tr("Resume") : tr("Pause"));
        Q_EMIT pauseToggled(paused);
    });
    connect(m_findKeys, &QAction::triggered, this, &ConnectionBar::poolKeysRequested);
    connect(m_interval, &QComboBox::currentIndexChanged, this, [this] {
        QSettings().setValue(kInterval, qint64(pollInterval().count()));
        Q_EMIT pollIntervalChanged(pollInterval());
    });
    connect(m_url->lineEdit(), &QLineEdit::returnPressed, this, &ConnectionBar::requestConnect);
    connect(m_key->lineEdit(), &QLineEdit::returnPressed, this, &ConnectionBar::requestConnect);
    connect(m_key, &QComboBox::activated, this, &ConnectionBar::keyActivated);
    connect(m_url, &QComboBox::currentTextChanged, this,
            [this] { m_url->setStyleSheet(QString()); });
}

ConnectionBar::~ConnectionBar() = default;

void ConnectionBar::loadRecent() {
    const QSettings settings;
    const QStringList urls = settings.value(kRecentUrls).toStringList();
    for (const QString &url : urls)
        m_url->addItem(url);
    for (const QString &key : settings.value(kRecentKeys).toStringList())
        m_key->addItem(key);
    setPollInterval(std::chrono::milliseconds(settings.value(kInterval, 1000).toLongLong()));
    m_url->setEditText(urls.isEmpty() ? defaultRedisUrl() : urls.constFirst());
}

QStringList ConnectionBar::recentUrls() const {
    return QSettings().value(kRecentUrls).toStringList();
}

void ConnectionBar::setTarget(const Endpoint &endpoint, const QByteArray &poolKey) {
    m_maskedEndpoint = endpoint;
    m_carried = endpoint; // kept when a refused password clears the masked endpoint
    m_maskedText = endpoint.toDisplayString();
    m_url->setEditText(m_maskedText);
    m_key->setEditText(QString::fromUtf8(poolKey));
}

std::optional<Endpoint> ConnectionBar::currentEndpoint(QString *error) const {
    const QString text = m_url->currentText().trimmed();
    if (m_maskedEndpoint && text == m_maskedText)
        return m_maskedEndpoint;
    EndpointParseResult parsed = parseEndpoint(text);
    if (!parsed.ok()) {
        if (error)
            *error = parsed.error;
        return std::nullopt;
    }
    // The --tls-* files and checks of the command line apply to any rediss:// URL typed here.
    if (parsed.endpoint->tls.enabled && m_carried.tls.enabled)
        parsed.endpoint->tls = m_carried.tls;
    // So does the --ssh tunnel: an address typed here is reached from the SSH host as well, never
    // dialled directly from this machine.
    parsed.endpoint->ssh = m_carried.ssh;
    // So does --sentinel-password to any redis+sentinel:// URL.
    if (parsed.endpoint->topology == Endpoint::Topology::Sentinel)
        parsed.endpoint->sentinelPassword = m_carried.sentinelPassword;
    return parsed.endpoint;
}

QByteArray ConnectionBar::currentKey() const {
    return m_key->currentText().trimmed().toUtf8();
}

std::chrono::milliseconds ConnectionBar::pollInterval() const {
    return std::chrono::milliseconds(m_interval->currentData().toLongLong());
}

void ConnectionBar::setPollInterval(std::chrono::milliseconds interval) {
    int best = 0;
    for (int i = 0; i < m_interval->count(); ++i)
        if (std::abs(m_interval->itemData(i).toLongLong() - interval.count()) <
            std::abs(m_interval->itemData(best).toLongLong() - interval.count()))
            best = i;
    m_interval->setCurrentIndex(best);
}

void ConnectionBar::requestConnect() {
    QString error;
    const std::optional<Endpoint> endpoint = currentEndpoint(&error);
    if (!endpoint) {
        m_url->setStyleSheet(QStringLiteral("QComboBox { background: #ffebee; }"));
        Q_EMIT urlRejected(error);
        return;
    }
    const QByteArray key = currentKey();
    if (key.isEmpty()) {
        Q_EMIT urlRejected(tr("the pool key is empty: name the pool's sorted set"));
        return;
    }
    // Enter on what is already watched: nothing to do (a reconnect would cut the history).
    if (m_state != ConnectionState::Disconnected && isWatched(*endpoint, key)) {
        m_url->setEditText(m_maskedText);
        return;
    }
    clearPasswordPrompt();
    // Never leave a password visible in the field.
    m_maskedEndpoint = endpoint;
    m_carried = *endpoint;
    m_maskedText = endpoint->toDisplayString();
    m_url->setEditText(m_maskedText);
    Q_EMIT connectRequested(*endpoint, key);
}

void ConnectionBar::keyActivated() {
    // Picking another pool while connected switches to it at once. QComboBox also "activates"
    // the item matching the text when the field only loses focus (dropdown closed with Escape,
    // a dialog opened, a click elsewhere): that is no change, and must not reconnect.
    if (m_state == ConnectionState::Disconnected)
        return;
    const auto endpoint = currentEndpoint();
    const QByteArray key = currentKey();
    if (endpoint && !key.isEmpty() && !isWatched(*endpoint, key))
        Q_EMIT connectRequested(*endpoint, key);
}

bool ConnectionBar::isWatched(const Endpoint &endpoint, const QByteArray &poolKey) const {
    return m_watchedEndpoint && *m_watchedEndpoint == endpoint && m_watchedKey == poolKey;
}

void ConnectionBar::setWatchedTarget(const Endpoint &endpoint, const QByteArray &poolKey) {
    m_watchedEndpoint = endpoint;
    m_watchedKey = poolKey;
    setTarget(endpoint, poolKey);
}

void ConnectionBar::askForPassword(const Endpoint &endpoint, const QString &reason) {
    // The URL without the refused password, with an empty password slot to type into:
    // redis://[user]:@host... The old password is forgotten, never shown.
    QString url = endpoint.toSafeUrl();
    const qsizetype schemeEnd = url.indexOf(QLatin1String("://")) + 3;
    const qsizetype at = url.indexOf(QLatin1Char('@'), schemeEnd);
    qsizetype cursor = 0;
    if (at >= 0) {
        url.insert(at, QLatin1Char(':'));
        cursor = at + 1;
    } else {
        url.insert(schemeEnd, QStringLiteral(":@"));
        cursor = schemeEnd + 1;
    }
    m_carried = endpoint; // its TLS files, sentinel password and tunnel stay for the retry
    m_maskedEndpoint.reset();
    m_maskedText.clear();
    m_watchedEndpoint.reset();
    m_url->setEditText(url);
    m_url->setStyleSheet(QStringLiteral("QComboBox { background: #fff3e0; }"));
    m_prompt->setText(tr(" Password refused: type it into the URL, then Enter "));
    m_prompt->setToolTip(reason);
    m_promptAction->setVisible(true);
    m_url->setFocus(Qt::OtherFocusReason);
    m_url->lineEdit()->setCursorPosition(int(cursor));
}

QString ConnectionBar::passwordPrompt() const {
    return m_promptAction->isVisible() ? m_prompt->text().trimmed() : QString();
}

void ConnectionBar::clearPasswordPrompt() {
    m_promptAction->setVisible(false);
    m_prompt->clear();
}

void ConnectionBar::setConnectionState(ConnectionState state) {
    m_state = state;
    const bool active = state != ConnectionState::Disconnected;
    m_connect->setText(active ? tr("Disconnect") : tr("Connect"));
    m_connect->setToolTip(active ? tr("Stop watching this server")
                                 : tr("Connect to the Redis server and watch the "
                                      "pool"));
    m_pause->setEnabled(state == ConnectionState::Connected);
    m_findKeys->setEnabled(state == ConnectionState::Connected);
    m_findKeys->setToolTip(state == ConnectionState::Connected
                               ? tr("Look for sorted-set keys on the server (a bounded "
                                    "SCAN with TYPE zset)")
                               : tr("Disabled: connect first"));
}

void ConnectionBar::setPoolKeys(const QStringList &keys) {
    const QString current = m_key->currentText();
    QStringList all = keys;
    for (int i = 0; i < m_key->count(); ++i)
        if (!all.contains(m_key->itemText(i)))
            all.append(m_key->itemText(i));
    m_key->clear();
    m_key->addItems(all);
    m_key->setEditText(current);
}

void ConnectionBar::rememberConnection(const Endpoint &endpoint, const QByteArray &poolKey) {
    rememberUrl(endpoint);
    rememberPoolKey(poolKey);
}

void ConnectionBar::rememberUrl(const Endpoint &endpoint) {
    if (!m_rememberConnections)
        return;
    QSettings settings;
    const QString safeUrl = endpoint.toSafeUrl();
    settings.setValue(kRecentUrls, prepend(settings.value(kRecentUrls).toStringList(), safeUrl));
    const QString text = m_url->currentText();
    if (m_url->findText(safeUrl) < 0)
        m_url->insertItem(0, safeUrl);
    m_url->setEditText(text);
}

void ConnectionBar::rememberPoolKey(const QByteArray &poolKey) {
    if (!m_rememberConnections || poolKey.isEmpty())
        return;
    QSettings settings;
    const QString key = QString::fromUtf8(poolKey);
    settings.setValue(kRecentKeys, prepend(settings.value(kRecentKeys).toStringList(), key));
    const QString text = m_key->currentText();
    if (m_key->findText(key) < 0)
        m_key->insertItem(0, key);
    m_key->setEditText(text);
}

} // namespace poolscope
