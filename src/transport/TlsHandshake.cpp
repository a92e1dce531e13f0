#include "transport/TlsHandshake.h"

#include "base/RedisError.h"
#include "transport/Transport.h"
#include "transport/UserPrompts.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <map>
#include <mutex>

#include <arpa/inet.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>

#include <QFileInfo>

namespace poolscope::transport {

void TlsSessionDeleter::operator()(ssl_st *session) const {
    SSL_free(session);
}

bool initialiseOpenSsl() {
    static const bool initialised = OPENSSL_init_ssl(OPENSSL_INIT_NO_ATEXIT, nullptr) == 1;
    return initialised;
}

namespace {

// What the callbacks saw during one handshake (SSL's app data while it runs).
struct HandshakeState {
    int verifyError = X509_V_OK; // the first verification failure
    int verifyDepth = 0;         // 0: the server's own certificate, 1+: a CA in its chain
    X509 *failedCertificate = nullptr;
    bool certificateRequested = false; // a CertificateRequest came (we had one or not)
    bool certificateRequestedWithoutOne = false;
    bool ticketArrived = false; // TLS 1.3: the server accepted us (see waitForVerdict)
    int alertReceived = -1;     // the alert the server sent, if any
    ~HandshakeState() { X509_free(failedCertificate); }
};

HandshakeState *stateOf(const SSL *ssl) {
    return static_cast<HandshakeState *>(SSL_get_app_data(ssl));
}

int recordVerifyFailure(int preverified, X509_STORE_CTX *store) {
    if (preverified)
        return 1;
    const auto *ssl = static_cast<const SSL *>(
        X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()));
    HandshakeState *state = ssl ? stateOf(ssl) : nullptr;
    if (state && state->verifyError == X509_V_OK) {
        state->verifyError = X509_STORE_CTX_get_error(store);
        state->verifyDepth = X509_STORE_CTX_get_error_depth(store);
        if (X509 *certificate = X509_STORE_CTX_get_current_cert(store)) {
            X509_up_ref(certificate);
            state->failedCertificate = certificate;
        }
    }
    return 0; // stop at the first failure: that is the one line we report
}

// Called only when the server asks for a certificate and none was configured.
int noClientCertificate(SSL *ssl, X509 **, EVP_PKEY **) {
    if (HandshakeState *state = stateOf(ssl))
        state->certificateRequestedWithoutOne = true;
    return 0;
}

int ticketArrived(SSL *ssl, SSL_SESSION *) {
    if (HandshakeState *state = stateOf(ssl))
        state->ticketArrived = true;
    return 0; // not kept: each connection does a full handshake
}

void watchAlerts(const SSL *ssl, int where, int value) {
    if ((where & SSL_CB_LOOP) != 0 && SSL_get_state(ssl) == TLS_ST_CR_CERT_REQ) {
        if (HandshakeState *state = stateOf(ssl))
            state->certificateRequested = true;
    }
    if ((where & SSL_CB_READ_ALERT) == 0)
        return;
    if (HandshakeState *state = stateOf(ssl); state && state->alertReceived < 0)
        state->alertReceived = value & 0xff;
}

// OpenSSL's default would read a passphrase from the terminal, even under the GUI: ask through
// transport::askSecret instead (the dashboard's prompter, the CLI's --tls-key-passphrase-file).
struct PassphraseAsk {
    QString keyFile;
    QString retryReason;
    bool asked = false;    // the key is encrypted
    bool declined = false; // nobody gave a passphrase
};

int askPassphrase(char *buffer, int size, int, void *userdata) {
    auto *ask = static_cast<PassphraseAsk *>(userdata);
    ask->asked = true;
    std::optional<QString> answer =
        askSecret({SecretKind::TlsKeyPassphrase, ask->keyFile, ask->retryReason});
    if (!answer) {
        ask->declined = true;
        return 0;
    }
    QByteArray bytes = answer->toUtf8();
    answer->fill(QChar(0));
    const int length = static_cast<int>(std::min<qsizetype>(bytes.size(), size));
    std::memcpy(buffer, bytes.constData(), static_cast<size_t>(length));
    OPENSSL_cleanse(bytes.data(), static_cast<size_t>(bytes.size()));
    return length;
}

// A wrong passphrase is asked again (with the reason) this many times in all.
constexpr int kPassphraseTries = 3;

QString openSslErrors() {
    QStringList reasons;
    while (const unsigned long code = ERR_get_error()) {
        const char *reason = ERR_reason_error_string(code);
        reasons << (reason ? QString::fromLatin1(reason) : QString::number(code));
    }
    return reasons.isEmpty() ? QStringLiteral("unknown error") : reasons.join(QStringLiteral("; "));
}

struct ContextDeleter {
    void operator()(SSL_CTX *context) const { SSL_CTX_free(context); }
};
using Context = std::unique_ptr<SSL_CTX, ContextDeleter>;

[[noreturn]] void fileProblem(const QString &display, const QString &what) {
    throw RedisError(RedisError::Kind::Connection,
                     QStringLiteral("cannot connect to %1: %2").arg(display, what));
}

Context makeContext(const TlsOptions &tls, const QString &display) {
    ERR_clear_error();
    Context context(SSL_CTX_new(TLS_client_method()));
    if (!context)
        fileProblem(display, QStringLiteral("cannot set up TLS: %1").arg(openSslErrors()));
    SSL_CTX *ctx = context.get();
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    // Whatever the socket holds in one read(), not a record header and then its body: half the
    // relay's system calls on the way back.
    SSL_CTX_set_read_ahead(ctx, 1);
    // Tickets are not reused; the callback only tells that the server accepted the handshake.
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
    SSL_CTX_sess_set_new_cb(ctx, ticketArrived);
    if (tls.insecure) {
        SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nullptr);
    } else {
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, recordVerifyFailure);
        if (!tls.caFile.isEmpty()) {
            if (SSL_CTX_load_verify_locations(ctx, QFile::encodeName(tls.caFile).constData(),
                                              nullptr) != 1)
                fileProblem(display, QStringLiteral("cannot read the CA file %1 (--tls-ca): %2")
                                         .arg(tls.caFile, openSslErrors()));
        } else if (SSL_CTX_set_default_verify_paths(ctx) != 1) {
            fileProblem(display,
                        QStringLiteral("cannot load the system's CAs: %1").arg(openSslErrors()));
        }
    }
    if (tls.certFile.isEmpty()) {
        if (!tls.keyFile.isEmpty())
            fileProblem(display, QStringLiteral("--tls-key needs --tls-cert"));
        SSL_CTX_set_client_cert_cb(ctx, noClientCertificate);
        return context;
    }
    if (SSL_CTX_use_certificate_chain_file(ctx, QFile::encodeName(tls.certFile).constData()) != 1)
        fileProblem(display,
                    QStringLiteral("cannot read the client certificate %1 (--tls-cert): %2")
                        .arg(tls.certFile, openSslErrors()));
    const QString keyFile = tls.keyFile.isEmpty() ? tls.certFile : tls.keyFile;
    PassphraseAsk ask{keyFile, {}};
    SSL_CTX_set_default_passwd_cb(ctx, askPassphrase);
    SSL_CTX_set_default_passwd_cb_userdata(ctx, &ask);
    int keyLoaded = 0;
    bool mismatch = false;
    bool wrongPassphrase = false;
    for (int attempt = 1;; ++attempt) {
        ERR_clear_error();
        ask.asked = false;
        ask.declined = false;
        keyLoaded = SSL_CTX_use_PrivateKey_file(ctx, QFile::encodeName(keyFile).constData(),
                                                SSL_FILETYPE_PEM);
        const unsigned long keyError = ERR_peek_last_error();
        mismatch = ERR_GET_LIB(keyError) == ERR_LIB_X509 &&
                   ERR_GET_REASON(keyError) == X509_R_KEY_VALUES_MISMATCH;
        if (keyLoaded == 1 || mismatch || !ask.asked || ask.declined)
            break;
        wrongPassphrase = true; // encrypted, a passphrase given, and the key did not open
        if (attempt == kPassphraseTries)
            break;
        ask.retryReason = QStringLiteral("wrong passphrase (attempt %1 of %2)")
                              .arg(attempt + 1)
                              .arg(kPassphraseTries);
    }
    SSL_CTX_set_default_passwd_cb(ctx, nullptr);
    SSL_CTX_set_default_passwd_cb_userdata(ctx, nullptr);
    if (keyLoaded != 1 && !mismatch) {
        if (wrongPassphrase)
            fileProblem(
                display,
                QStringLiteral("wrong passphrase for the encrypted client key %1").arg(keyFile));
        if (ask.asked)
            fileProblem(display, QStringLiteral("the client key %1 is encrypted and no passphrase "
                                                "was given (poolscope-cli: "
                                                "--tls-key-passphrase-file FILE; the dashboard "
                                                "asks for it)")
                                     .arg(keyFile));
        fileProblem(display, QStringLiteral("cannot read the client key %1 (--tls-key): %2")
                                 .arg(keyFile, openSslErrors()));
    }
    if (mismatch || SSL_CTX_check_private_key(ctx) != 1)
        fileProblem(display, QStringLiteral("the client key %1 does not belong to the "
                                            "certificate %2")
                                 .arg(keyFile, tls.certFile));
    return context;
}

// One context per set of files, kept for the process: loading a CA bundle costs milliseconds,
// and the load runner opens dozens of connections. A file changed on disk makes a new one.
SSL_CTX *contextFor(const TlsOptions &tls, const QString &display) {
    initialiseOpenSsl(); // before the first context (a test or benchmark has no main() call)
    static std::mutex mutex;
    static std::map<QString, Context> contexts;
    QString key = tls.insecure ? QStringLiteral("insecure") : QStringLiteral("verify");
    for (const QString &file : {tls.caFile, tls.certFile, tls.keyFile})
        key += u'\n' + file + u'@' +
               QString::number(file.isEmpty() ? 0
                                              : QFileInfo(file).lastModified().toMSecsSinceEpoch());
    const std::lock_guard lock(mutex);
    auto found = contexts.find(key);
    if (found == contexts.end())
        found = contexts.emplace(key, makeContext(tls, display)).first;
    return found->second.get();
}

bool isIpAddress(const QString &host) {
    const QByteArray text = host.toLatin1();
    unsigned char buffer[sizeof(in6_addr)];
    return inet_pton(AF_INET, text.constData(), buffer) == 1 ||
           inet_pton(AF_INET6, text.constData(), buffer) == 1;
}

QString nameOf(const X509_NAME *name) {
    BIO *bio = BIO_new(BIO_s_mem());
    X509_NAME_print_ex(bio, name, 0, XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB);
    char *data = nullptr;
    const long length = BIO_get_mem_data(bio, &data);
    QString text = QString::fromUtf8(data, static_cast<qsizetype>(length));
    BIO_free(bio);
    return text;
}

QString dateOf(const ASN1_TIME *time) {
    std::tm parts{};
    if (!time || ASN1_TIME_to_tm(time, &parts) != 1)
        return QStringLiteral("an unreadable date");
    char text[32];
    std::strftime(text, sizeof(text), "%Y-%m-%d %H:%M:%S UTC", &parts);
    return QString::fromLatin1(text);
}

// "DNS:localhost, IP:127.0.0.1", or the subject's CN when there are no alternative names.
QString presentedNames(X509 *certificate) {
    QStringList names;
    auto *alternatives = static_cast<GENERAL_NAMES *>(
        X509_get_ext_d2i(certificate, NID_subject_alt_name, nullptr, nullptr));
    for (int i = 0; alternatives && i < sk_GENERAL_NAME_num(alternatives); ++i) {
        const GENERAL_NAME *name = sk_GENERAL_NAME_value(alternatives, i);
        if (name->type == GEN_DNS) {
            const ASN1_STRING *dns = name->d.dNSName;
            names << QStringLiteral("DNS:") + QString::fromLatin1(reinterpret_cast<const char *>(
                                                                      ASN1_STRING_get0_data(dns)),
                                                                  ASN1_STRING_length(dns));
        } else if (name->type == GEN_IPADD) {
            const ASN1_OCTET_STRING *ip = name->d.iPAddress;
            char text[INET6_ADDRSTRLEN] = {};
            const int family = ASN1_STRING_length(ip) == 4 ? AF_INET : AF_INET6;
            if (ASN1_STRING_length(ip) == 4 || ASN1_STRING_length(ip) == 16)
                inet_ntop(family, ASN1_STRING_get0_data(ip), text, sizeof(text));
            names << QStringLiteral("IP:") + QString::fromLatin1(text);
        }
    }
    GENERAL_NAMES_free(alternatives);
    if (names.isEmpty())
        names << nameOf(X509_get_subject_name(certificate));
    return names.join(QStringLiteral(", "));
}

// What fixes a failed verification: trusting the CA, or the name expected.
RedisError::Remedy verificationRemedy(const HandshakeState &state) {
    switch (state.verifyError) {
    case X509_V_ERR_HOSTNAME_MISMATCH:
    case X509_V_ERR_IP_ADDRESS_MISMATCH:
        return RedisError::Remedy::TlsServerName;
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
        return RedisError::Remedy::TlsCaFile;
    default:
        return RedisError::Remedy::None;
    }
}

QString verificationFailure(SSL *ssl, const HandshakeState &state, const TlsOptions &tls,
                            const QString &expectedName) {
    X509 *certificate = state.failedCertificate;
    const QString subject =
        certificate ? nameOf(X509_get_subject_name(certificate)) : QStringLiteral("?");
    const QString whose =
        state.verifyDepth == 0
            ? QStringLiteral("the server's certificate (%1)").arg(subject)
            : QStringLiteral("the CA certificate %1 in the server's chain").arg(subject);
    const QString trusted = tls.caFile.isEmpty() ? QStringLiteral("the system's CAs")
                                                 : QStringLiteral("the CA file %1").arg(tls.caFile);
    switch (state.verifyError) {
    case X509_V_ERR_HOSTNAME_MISMATCH:
    case X509_V_ERR_IP_ADDRESS_MISMATCH: {
        X509 *leaf = certificate ? certificate : SSL_get0_peer_certificate(ssl);
        return QStringLiteral("TLS name mismatch: expected \"%1\", the server's certificate is "
                              "for %2")
            .arg(expectedName, leaf ? presentedNames(leaf) : QStringLiteral("no name"));
    }
    case X509_V_ERR_CERT_HAS_EXPIRED:
        return QStringLiteral("TLS certificate expired: %1 expired on %2")
            .arg(whose, dateOf(certificate ? X509_get0_notAfter(certificate) : nullptr));
    case X509_V_ERR_CERT_NOT_YET_VALID:
        return QStringLiteral("TLS certificate not yet valid: %1 is valid from %2")
            .arg(whose, dateOf(certificate ? X509_get0_notBefore(certificate) : nullptr));
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
        return QStringLiteral("TLS certificate not trusted: unable to verify %1, which is "
                              "self-signed and not among %2")
            .arg(whose, trusted);
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
        return QStringLiteral("TLS certificate not trusted: unable to verify the server's "
                              "certificate: its chain ends at the self-signed CA %1, an unknown "
                              "CA not among %2")
            .arg(subject, trusted);
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE: {
        const QString issuer =
            certificate ? nameOf(X509_get_issuer_name(certificate)) : QStringLiteral("?");
        return QStringLiteral("TLS certificate not trusted: unable to verify %1: its issuer %2 "
                              "is an unknown CA, not among %3")
            .arg(whose, issuer, trusted);
    }
    default:
        return QStringLiteral("TLS certificate verification failed for %1: %2")
            .arg(whose, QString::fromLatin1(X509_verify_cert_error_string(state.verifyError)));
    }
}

QString alertFailure(const HandshakeState &state, const TlsOptions &tls) {
    const int alert = state.alertReceived;
    const QString description = QString::fromLatin1(SSL_alert_desc_string_long(alert));
    constexpr int kCertificateRequired = 116; // TLS 1.3
    constexpr int kHandshakeFailure = 40;     // TLS 1.2 servers refusing a missing certificate
    if (alert == kCertificateRequired ||
        (alert == kHandshakeFailure && state.certificateRequestedWithoutOne))
        return QStringLiteral("the server requires a TLS client certificate: give one with "
                              "--tls-cert FILE --tls-key FILE");
    if (!tls.certFile.isEmpty() &&
        (alert == SSL_AD_BAD_CERTIFICATE || alert == SSL_AD_UNKNOWN_CA ||
         alert == SSL_AD_CERTIFICATE_EXPIRED || alert == SSL_AD_UNSUPPORTED_CERTIFICATE ||
         alert == SSL_AD_CERTIFICATE_UNKNOWN))
        return QStringLiteral("the server refused the client certificate %1: %2")
            .arg(tls.certFile, description);
    return QStringLiteral("the server ended the TLS handshake: %1").arg(description);
}

constexpr auto kPlainTextServer =
    "the server answered in plain text, not TLS: is this a plain port? use redis://";

// Reason codes OpenSSL gives when the first bytes back are not a TLS record.
bool looksLikePlainText(unsigned long code) {
    if (ERR_GET_LIB(code) != ERR_LIB_SSL)
        return false;
    switch (ERR_GET_REASON(code)) {
    case SSL_R_WRONG_VERSION_NUMBER:
    case SSL_R_UNKNOWN_PROTOCOL:
    case SSL_R_PACKET_LENGTH_TOO_LONG:
    case SSL_R_HTTP_REQUEST:
        return true;
    default:
        return false;
    }
}

// A plain Redis answers nothing to a ClientHello: it waits for the end of an inline command
// (a newline, which the hello's NUL bytes hide from it). When the server stays silent, ask it in
// RESP on a second connection: a +PONG or -ERR means it speaks plain text.
bool answersPlainResp(const Endpoint &endpoint, Clock::time_point deadline) {
    try {
        UniqueFd probe;
        if (endpoint.ssh.enabled()) {
            // Through a tunnel the server is reached only from the SSH host: never dial it from
            // here. The probe takes a tunnel of its own (a plain one).
            Endpoint plain = endpoint;
            plain.tls = TlsOptions{};
            probe = UniqueFd(
                openStream(plain, std::chrono::milliseconds(millisecondsUntil(deadline))).value());
        } else {
            probe = dialTcp(endpoint.host, endpoint.port, deadline, std::chrono::milliseconds(0),
                            endpoint.toDisplayString());
        }
        static constexpr char kPing[] = "*1\r\n$4\r\nPING\r\n";
        if (::send(probe.get(), kPing, sizeof(kPing) - 1, MSG_NOSIGNAL) != sizeof(kPing) - 1)
            return false;
        pollfd readable{probe.get(), POLLIN, 0};
        if (::poll(&readable, 1, millisecondsUntil(deadline)) != 1)
            return false;
        char first = 0;
        return ::recv(probe.get(), &first, 1, 0) == 1 && (first == '+' || first == '-');
    } catch (const RedisError &) {
        return false;
    }
}

// TLS 1.3: the server checks our certificate (or its absence) only after our side of the
// handshake is done, then sends either session tickets (accepted) or an alert (certificate
// required, unknown CA, ...). When a certificate was asked for, wait for that verdict so the
// failure is reported at connect and names the certificate, not as "the server closed the
// connection" on the first command. A server that accepts but sends no ticket costs the wait:
// the rest of the connect timeout when we had no certificate, a few round trips when we had one.
void waitForVerdict(SSL *ssl, int tcp, HandshakeState &state, Clock::time_point deadline) {
    while (!state.ticketArrived) {
        char byte = 0;
        ERR_clear_error();
        const int peeked = SSL_peek(ssl, &byte, 1);
        if (peeked > 0 || state.ticketArrived)
            return;
        const int error = SSL_get_error(ssl, peeked);
        if (error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE)
            return; // the caller reads the alert from the state
        pollfd ready{tcp, static_cast<short>(error == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT), 0};
        const int timeLeft = millisecondsUntil(deadline);
        if (timeLeft == 0 || ::poll(&ready, 1, timeLeft) == 0)
            return;
    }
}

} // namespace

TlsSession handshakeTls(int tcp, const Endpoint &endpoint, Clock::time_point deadline,
                        std::chrono::milliseconds budget) {
    const QString display = endpoint.toDisplayString();
    const TlsOptions &tls = endpoint.tls;
    auto fail = [&display](const QString &cause) {
        return RedisError(RedisError::Kind::Connection,
                          QStringLiteral("cannot connect to %1: %2").arg(display, cause));
    };
    SSL_CTX *context = contextFor(tls, display);
    ERR_clear_error();
    TlsSession session(SSL_new(context));
    if (!session)
        throw fail(QStringLiteral("cannot set up TLS: %1").arg(openSslErrors()));
    SSL *ssl = session.get();
    HandshakeState state;
    SSL_set_app_data(ssl, &state);
    struct ForgetState {
        SSL *ssl;
        ~ForgetState() { SSL_set_app_data(ssl, nullptr); } // callbacks after this see none
    } forget{ssl};
    SSL_set_info_callback(ssl, watchAlerts);
    SSL_set_fd(ssl, tcp);

    const QString expectedName = tls.serverName.isEmpty() ? endpoint.host : tls.serverName;
    const QByteArray name = expectedName.toUtf8();
    const bool nameIsAddress = isIpAddress(expectedName);
    if (!nameIsAddress)
        SSL_set_tlsext_host_name(ssl, name.constData()); // SNI never carries an address
    if (!tls.insecure) {
        const int named = nameIsAddress
                              ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), name.constData())
                              : SSL_set1_host(ssl, name.constData());
        if (named != 1)
            throw fail(QStringLiteral("cannot verify the name \"%1\"").arg(expectedName));
    }

    const Clock::time_point handshakeStart = Clock::now();
    const Clock::time_point probeAt = deadline - budget / 2;
    bool probed = false;
    for (;;) {
        ERR_clear_error();
        const int done = SSL_connect(ssl);
        if (done == 1)
            break;
        const int error = SSL_get_error(ssl, done);
        if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) {
            const bool silent = SSL_get_state(ssl) == TLS_ST_CW_CLNT_HELLO;
            const Clock::time_point wakeAt =
                silent && !probed ? std::min(probeAt, deadline) : deadline;
            pollfd ready{tcp, static_cast<short>(error == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT),
                         0};
            int woke = ::poll(&ready, 1, millisecondsUntil(wakeAt));
            if (woke < 0 && errno == EINTR)
                continue;
            if (woke > 0)
                continue;
            if (silent && !probed && Clock::now() < deadline) {
                probed = true;
                if (answersPlainResp(endpoint, deadline - (deadline - Clock::now()) / 2))
                    throw fail(QLatin1String(kPlainTextServer));
                continue;
            }
            throw RedisError(
                RedisError::Kind::Timeout,
                QStringLiteral("cannot connect to %1: the TLS handshake timed out "
                               "after %2 ms%3")
                    .arg(display)
                    .arg(budget.count())
                    .arg(silent ? QStringLiteral(" (the server sent nothing back)") : QString()));
        }
        const int savedErrno = errno;
        const unsigned long code = ERR_peek_error();
        if (state.verifyError != X509_V_OK)
            throw fail(verificationFailure(ssl, state, tls, expectedName))
                .withRemedy(verificationRemedy(state));
        if (state.alertReceived >= 0)
            throw fail(alertFailure(state, tls));
        if (looksLikePlainText(code))
            throw fail(QLatin1String(kPlainTextServer));
        if (error == SSL_ERROR_SYSCALL && code == 0) {
            if (savedErrno == ECONNRESET)
                throw fail(QStringLiteral("the server reset the connection during the TLS "
                                          "handshake"));
            throw fail(QStringLiteral("the server closed the connection during the TLS "
                                      "handshake"));
        }
        throw fail(QStringLiteral("TLS handshake failed: %1").arg(openSslErrors()));
    }
    const bool sentCertificate = state.certificateRequested &&
                                 !state.certificateRequestedWithoutOne &&
                                 SSL_version(ssl) == TLS1_3_VERSION;
    if (state.certificateRequestedWithoutOne || sentCertificate) {
        Clock::time_point waitUntil = deadline;
        if (!state.certificateRequestedWithoutOne) {
            // The verdict comes one round trip after our Finished; the handshake took at least
            // one. Generous, as a loaded machine stretches both.
            const auto handshake = Clock::now() - handshakeStart;
            waitUntil = std::min(
                deadline, Clock::now() + std::max<Clock::duration>(std::chrono::milliseconds(250),
                                                                   4 * handshake));
        }
        waitForVerdict(ssl, tcp, state, waitUntil);
        if (state.alertReceived >= 0)
            throw fail(alertFailure(state, tls));
    }
    return session;
}

} // namespace poolscope::transport
