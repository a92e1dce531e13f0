#include "health/TlsStack.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>

namespace poolscope::health {

TlsStack::~TlsStack() {
    for (Layer &layer : m_layers)
        SSL_free(layer.ssl); // frees its BIOs too
}

SSL_CTX *TlsStack::makeContext(const QString &caFile, bool insecure, QString *error) {
    SSL_CTX *context = SSL_CTX_new(TLS_client_method());
    if (!context) {
        *error = QStringLiteral("cannot create a TLS context");
        return nullptr;
    }
    SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
    if (insecure) {
        SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nullptr);
        return context;
    }
    const bool loaded =
        caFile.isEmpty() ? SSL_CTX_set_default_verify_paths(context) == 1
                         : SSL_CTX_load_verify_locations(context, caFile.toLocal8Bit().constData(),
                                                         nullptr) == 1;
    if (!loaded) {
        *error = QStringLiteral("cannot read the CA certificates %1")
                     .arg(caFile.isEmpty() ? QStringLiteral("of the system") : caFile);
        SSL_CTX_free(context);
        ERR_clear_error();
        return nullptr;
    }
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nullptr);
    return context;
}

void TlsStack::freeContext(SSL_CTX *context) {
    SSL_CTX_free(context);
}

void TlsStack::push(SSL_CTX *context, const QByteArray &serverName, bool verify) {
    Layer layer;
    layer.ssl = SSL_new(context);
    BIO *in = BIO_new(BIO_s_mem());
    BIO *out = BIO_new(BIO_s_mem());
    SSL_set_bio(layer.ssl, in, out);
    SSL_set_connect_state(layer.ssl);
    in6_addr ip{};
    const bool literal = inet_pton(AF_INET, serverName.constData(), &ip) == 1 ||
                         inet_pton(AF_INET6, serverName.constData(), &ip) == 1;
    if (!literal)
        SSL_set_tlsext_host_name(layer.ssl, serverName.constData());
    if (verify) {
        X509_VERIFY_PARAM *param = SSL_get0_param(layer.ssl);
        if (literal)
            X509_VERIFY_PARAM_set1_ip_asc(param, serverName.constData());
        else
            X509_VERIFY_PARAM_set1_host(param, serverName.constData(), 0);
    }
    m_layers.push_back(layer);
}

void TlsStack::feedRaw(const char *data, size_t size) {
    if (m_layers.empty())
        m_appIn.append(data, qsizetype(size));
    else
        BIO_write(SSL_get_rbio(m_layers.front().ssl), data, int(size));
}

void TlsStack::writeApp(const QByteArray &data) {
    if (m_layers.empty())
        m_rawOut += data;
    else
        m_layers.back().plainOut += data;
}

bool TlsStack::fail(SSL *ssl, int result, const char *during) {
    const int code = SSL_get_error(ssl, result);
    if (code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE)
        return true;
    QString reason;
    const long verify = SSL_get_verify_result(ssl);
    if (verify != X509_V_OK)
        reason = QString::fromLatin1(X509_verify_cert_error_string(verify));
    else if (const unsigned long queued = ERR_peek_last_error(); queued != 0) {
        char text[256];
        ERR_error_string_n(queued, text, sizeof text);
        reason = QString::fromLatin1(text);
    } else if (code == SSL_ERROR_ZERO_RETURN) {
        reason = QStringLiteral("the peer closed TLS");
    } else {
        reason = QStringLiteral("TLS error %1").arg(code);
    }
    ERR_clear_error();
    m_error = QStringLiteral("%1: %2").arg(QLatin1String(during), reason);
    return false;
}

bool TlsStack::pump() {
    if (m_layers.empty())
        return true;
    bool changed = true;
    char chunk[16384];
    while (changed) {
        changed = false;
        // Downwards: handshakes and writes, each layer's records into the layer below.
        for (size_t i = m_layers.size(); i-- > 0;) {
            Layer &layer = m_layers[i];
            if (!layer.done) {
                const int result = SSL_do_handshake(layer.ssl);
                if (result == 1) {
                    layer.done = true;
                    changed = true;
                } else if (!fail(layer.ssl, result, "handshake")) {
                    return false;
                }
            }
            if (layer.done && !layer.plainOut.isEmpty()) {
                const int written =
                    SSL_write(layer.ssl, layer.plainOut.constData(), int(layer.plainOut.size()));
                if (written > 0) {
                    layer.plainOut.remove(0, written);
                    changed = true;
                } else if (!fail(layer.ssl, written, "write")) {
                    return false;
                }
            }
            BIO *out = SSL_get_wbio(layer.ssl);
            while (BIO_ctrl_pending(out) > 0) {
                const int n = BIO_read(out, chunk, sizeof chunk);
                if (n <= 0)
                    break;
                if (i == 0)
                    m_rawOut.append(chunk, n);
                else
                    m_layers[i - 1].plainOut.append(chunk, n);
                changed = true;
            }
        }
        // Upwards: each layer's plaintext into the layer above.
        for (size_t i = 0; i < m_layers.size(); ++i) {
            Layer &layer = m_layers[i];
            if (!layer.done)
                continue;
            for (;;) {
                const int n = SSL_read(layer.ssl, chunk, sizeof chunk);
                if (n <= 0) {
                    const int code = SSL_get_error(layer.ssl, n);
                    if (code == SSL_ERROR_ZERO_RETURN)
                        break; // close_notify: the caller sees EOF from the socket
                    if (!fail(layer.ssl, n, "read"))
                        return false;
                    break;
                }
                changed = true;
                if (i + 1 == m_layers.size())
                    m_appIn.append(chunk, n);
                else
                    BIO_write(SSL_get_rbio(m_layers[i + 1].ssl), chunk, n);
            }
        }
    }
    return true;
}

QByteArray TlsStack::takeRawOut() {
    return std::exchange(m_rawOut, {});
}

QByteArray TlsStack::takeAppIn() {
    return std::exchange(m_appIn, {});
}

} // namespace poolscope::health
