#pragma once

#include "profiles/ConnectionProfile.h"

#include <memory>
#include <optional>

#include <QSettings>
#include <QString>
#include <QStringList>

namespace poolscope {

struct ProfileLoadResult {
    std::optional<ConnectionProfile> profile;
    QString error; // one line naming the connection and the field; empty on success
    bool ok() const { return profile.has_value(); }
};

// Saved connections in the dashboard's settings (organisation and application "poolscope", the
// same file as its recent connections), group "connections/saved". The CLI reads the same file,
// so `poolscope-cli --profile NAME` finds what the Connections dialog saved.
//
// Never writes a secret: every profile goes through checkProfile(), which refuses a URL holding a
// password, and a profile has no field for one. Group and environment are stored as text; files
// without them (from before) load with none. Each error is one line naming the connection and
// the field.
class ProfileStore {
public:
    // The dashboard's settings file.
    ProfileStore();
    // Another settings file (INI), e.g. for a test.
    explicit ProfileStore(const QString &iniFile);

    QStringList names() const; // sorted, case-insensitively
    bool contains(const QString &name) const;
    ProfileLoadResult load(const QString &name) const;
    // previousName empty: a new connection (refused when the name is taken). Otherwise replaces
    // the connection saved as previousName, possibly under a new name. Returns an error or "".
    QString save(const ConnectionProfile &profile, const QString &previousName = {});
    QString rename(const QString &from, const QString &to);
    QString remove(const QString &name);

    QString fileName() const { return m_settings->fileName(); }

private:
    QString groupOf(const QString &name) const;
    void write(const ConnectionProfile &profile);
    QString commit();

    std::unique_ptr<QSettings> m_settings;
};

} // namespace poolscope
