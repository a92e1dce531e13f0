#pragma once

#include <memory>
#include <vector>

#include <QByteArray>
#include <QString>

using SSL = struct ssl_st;
using SSL_CTX = struct ssl_ctx_st;

namespace poolscope::health {

// TLS client layers over a byte stream, without touching a socket: TLS to an https:// proxy,
// and TLS to the target inside the tunnel (possibly inside the first). The caller moves bytes:
// feedRaw() what the socket read, takeRawOut() what it must write; writeApp()/takeAppIn() are the
// plaintext of the top layer. With no layer, bytes pass straight through.
class TlsStack {
public:
    TlsStack() = default;
    ~TlsStack();
    TlsStack(const TlsStack &) = delete;
    TlsStack &operator=(const TlsStack &) = delete;

    // A new top layer whose handshake starts at the next pump(). serverName: the name (or IP
    // literal) the certificate must carry, unless verification is off in the context.
    void push(SSL_CTX *context, const QByteArray &serverName, bool verify);
    bool empty() const { return m_layers.empty(); }
    bool topHandshakeDone() const { return m_layers.empty() || m_layers.back().done; }

    void feedRaw(const char *data, size_t size);
    void writeApp(const QByteArray &data);
    // Advances handshakes and moves data between layers. False on a TLS error (error() says it).
    bool pump();
    QByteArray takeRawOut();
    QByteArray takeAppIn();
    const QString &error() const { return m_error; }

    // A client context for one round: the system's CAs, or only those of caFile; none checked
    // when insecure. nullptr with the reason in *error.
    static SSL_CTX *makeContext(const QString &caFile, bool insecure, QString *error);
    static void freeContext(SSL_CTX *context);

private:
    struct Layer {
        SSL *ssl = nullptr;
        bool done = false;
        QByteArray plainOut; // waiting for the handshake
    };
    bool fail(SSL *ssl, int result, const char *during);

    std::vector<Layer> m_layers;
    QByteArray m_rawOut;
    QByteArray m_appIn;
    QString m_error;
};

} // namespace poolscope::health
