#include "profiles/SecretStore.h"

#include <qt6keychain/keychain.h>

namespace poolscope {

namespace {

const QString kService = QStringLiteral("poolscope");
constexpr transport::SecretKind kAllKinds[] = {
    transport::SecretKind::RedisPassword, transport::SecretKind::TlsKeyPassphrase,
    transport::SecretKind::SshKeyPassphrase, transport::SecretKind::SshPassword};

// Jobs delete themselves after finished (QtKeychain's autoDelete); never a plain-text fallback.
template <typename Job> Job *makeJob(QObject *parent, const QString &key) {
    auto *job = new Job(kService, parent);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(key);
    return job;
}

bool meansNoKeychain(QKeychain::Error error) {
    return error == QKeychain::NoBackendAvailable || error == QKeychain::NotImplemented ||
           error == QKeychain::AccessDeniedByUser || error == QKeychain::OtherError;
}

} // namespace

SecretStore::SecretStore(QObject *parent)
    : QObject(parent) {}

SecretStore::~SecretStore() = default;

QString SecretStore::kindName(transport::SecretKind kind) {
    switch (kind) {
    case transport::SecretKind::RedisPassword:
        return QStringLiteral("redis-password");
    case transport::SecretKind::TlsKeyPassphrase:
        return QStringLiteral("tls-key-passphrase");
    case transport::SecretKind::SshKeyPassphrase:
        return QStringLiteral("ssh-key-passphrase");
    case transport::SecretKind::SshPassword:
        return QStringLiteral("ssh-password");
    }
    return QStringLiteral("secret");
}

QString SecretStore::entryName(const QString &connection, transport::SecretKind kind) {
    return connection + u'/' + kindName(kind);
}

void SecretStore::probe() {
    if (m_availability != Availability::Unknown) {
        Q_EMIT availabilityKnown(m_availability == Availability::Available);
        return;
    }
    if (m_probing)
        return;
    m_probing = true;
    // Reading an entry that is not there: "not found" means a keychain answered.
    auto *job = makeJob<QKeychain::ReadPasswordJob>(this, QStringLiteral("availability probe"));
    connect(job, &QKeychain::Job::finished, this, [this](QKeychain::Job *done) {
        m_probing = false;
        const QKeychain::Error error = done->error();
        if (error == QKeychain::NoError || error == QKeychain::EntryNotFound) {
            m_availability = Availability::Available;
        } else {
            m_availability = Availability::Unavailable;
            m_unavailableReason = done->errorString().trimmed();
            // QtKeychain says "Unknown error" when D-Bus has no Secret Service at all.
            if (m_unavailableReason.isEmpty() ||
                m_unavailableReason.compare(QLatin1String("Unknown error"), Qt::CaseInsensitive) ==
                    0)
                m_unavailableReason = QStringLiteral("no Secret Service on D-Bus");
        }
        Q_EMIT availabilityKnown(m_availability == Availability::Available);
    });
    job->start();
}

void SecretStore::read(const QString &connection, transport::SecretKind kind) {
    if (const std::optional<QString> kept = inMemory(connection, kind)) {
        Q_EMIT secretRead(connection, kind, true, *kept, {});
        return;
    }
    if (m_availability == Availability::Unavailable) {
        Q_EMIT secretRead(connection, kind, false, {}, {});
        return;
    }
    auto *job = makeJob<QKeychain::ReadPasswordJob>(this, entryName(connection, kind));
    connect(job, &QKeychain::Job::finished, this, [this, connection, kind](QKeychain::Job *done) {
        const auto *reader = static_cast<QKeychain::ReadPasswordJob *>(done);
        const QKeychain::Error error = done->error();
        if (error == QKeychain::NoError) {
            const QString secret = reader->textData();
            m_memory[entryName(connection, kind)] = secret;
            Q_EMIT secretRead(connection, kind, true, secret, {});
        } else if (error == QKeychain::EntryNotFound) {
            Q_EMIT secretRead(connection, kind, false, {}, {});
        } else {
            if (meansNoKeychain(error) && m_availability == Availability::Unknown) {
                m_availability = Availability::Unavailable;
                m_unavailableReason = done->errorString();
            }
            Q_EMIT secretRead(connection, kind, false, {},
                              QStringLiteral("keychain: cannot read the %1 of \"%2\": %3")
                                  .arg(kindName(kind), connection, done->errorString()));
        }
    });
    job->start();
}

void SecretStore::write(const QString &connection, transport::SecretKind kind,
                        const QString &secret) {
    keepInMemory(connection, kind, secret);
    if (m_availability == Availability::Unavailable) {
        Q_EMIT secretWritten(connection, kind,
                             QStringLiteral("no keychain: the %1 of \"%2\" is kept in memory only, "
                                            "until poolscope exits")
                                 .arg(kindName(kind), connection));
        return;
    }
    auto *job = makeJob<QKeychain::WritePasswordJob>(this, entryName(connection, kind));
    job->setTextData(secret);
    connect(job, &QKeychain::Job::finished, this, [this, connection, kind](QKeychain::Job *done) {
        Q_EMIT secretWritten(connection, kind,
                             done->error() == QKeychain::NoError
                                 ? QString()
                                 : QStringLiteral("keychain: cannot store the %1 of \"%2\": %3")
                                       .arg(kindName(kind), connection, done->errorString()));
    });
    job->start();
}

void SecretStore::forget(const QString &connection) {
    for (const transport::SecretKind kind : kAllKinds) {
        forgetInMemory(connection, kind);
        if (m_availability == Availability::Unavailable)
            continue;
        makeJob<QKeychain::DeletePasswordJob>(this, entryName(connection, kind))->start();
    }
}

void SecretStore::move(const QString &from, const QString &to) {
    if (from == to)
        return;
    for (const transport::SecretKind kind : kAllKinds) {
        if (const std::optional<QString> kept = inMemory(from, kind)) {
            keepInMemory(to, kind, *kept);
            forgetInMemory(from, kind);
        }
        if (m_availability == Availability::Unavailable)
            continue;
        auto *job = makeJob<QKeychain::ReadPasswordJob>(this, entryName(from, kind));
        connect(job, &QKeychain::Job::finished, this, [this, from, to, kind](QKeychain::Job *done) {
            if (done->error() != QKeychain::NoError)
                return;
            auto *writer = makeJob<QKeychain::WritePasswordJob>(this, entryName(to, kind));
            writer->setTextData(static_cast<QKeychain::ReadPasswordJob *>(done)->textData());
            writer->start();
            makeJob<QKeychain::DeletePasswordJob>(this, entryName(from, kind))->start();
        });
        job->start();
    }
}

void SecretStore::keepInMemory(const QString &connection, transport::SecretKind kind,
                               const QString &secret) {
    m_memory[entryName(connection, kind)] = secret;
}

std::optional<QString> SecretStore::inMemory(const QString &connection,
                                             transport::SecretKind kind) const {
    const auto found = m_memory.find(entryName(connection, kind));
    if (found == m_memory.end())
        return std::nullopt;
    return found->second;
}

void SecretStore::forgetInMemory(const QString &connection, transport::SecretKind kind) {
    m_memory.erase(entryName(connection, kind));
}

} // namespace poolscope
