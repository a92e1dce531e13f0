// Shared by the guard tests: one Redis server, a loopback HTTP target and ten loopback proxies,
// and guard options aimed at them (short timeouts, fall and rise of 2).
#pragma once

#include "LoopbackProxies.h"
#include "RedisFixture.h"

#include "health/HealthGuard.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <chrono>
#include <memory>
#include <vector>

namespace poolscope::testing {

class GuardFixture {
protected:
    // Starts the servers; false with what failed in *error.
    bool startServers(QString *error) {
        if (!m_redis.start()) {
            *error = m_redis.error();
            return false;
        }
        LoopbackServer::Options target;
        target.kind = LoopbackServer::Kind::HttpTarget;
        m_target = std::make_unique<LoopbackServer>(target);
        if (!m_target->start()) {
            *error = m_target->error();
            return false;
        }
        for (int i = 0; i < 10; ++i) {
            m_proxies.push_back(std::make_unique<LoopbackServer>(LoopbackServer::Options{}));
            if (!m_proxies.back()->start()) {
                *error = m_proxies.back()->error();
                return false;
            }
        }
        m_closedPort = closedLoopbackPort();
        return true;
    }
    void stopServers() {
        m_proxies.clear();
        m_target.reset();
    }

    QByteArray proxyMember(int i) const {
        return "127.0.0.1:" + QByteArray::number(m_proxies[size_t(i)]->port());
    }
    QString targetUrl() const {
        return QStringLiteral("http://127.0.0.1:%1/health").arg(m_target->port());
    }
    GuardOptions guardOptions() const {
        using namespace std::chrono_literals;
        GuardOptions options;
        QString error;
        options.check.target = *CheckTarget::parse(targetUrl(), &error);
        options.check.proxyTimeout = 500ms;
        options.check.targetTimeout = 500ms;
        options.fall = 2;
        options.rise = 2;
        options.leaseTtl = 5000ms;
        return options;
    }
    QStringList cliBase(const QByteArray &key) const {
        return {QStringLiteral("--url"), m_redis.url(), QStringLiteral("--key"),
                QString::fromUtf8(key)};
    }

    RedisFixture m_redis;
    std::unique_ptr<LoopbackServer> m_target;
    std::vector<std::unique_ptr<LoopbackServer>> m_proxies;
    quint16 m_closedPort = 0;
};

} // namespace poolscope::testing
