// The members table's Health column: a member's health record as a state, text and tooltip.
#pragma once

#include "health/HealthStore.h"

#include <QString>

namespace poolscope {

// What the Health column (and its filter) calls a member.
enum class HealthState { Unknown, Up, Down, NotCheckable };

// Unknown for no record (never checked) or an outcome that is no check ("interrupted").
HealthState healthState(const HealthRecord *record);
QString healthStateName(HealthState state); // "up", "down", "unknown", "not checkable"
// The same, as the window shows it (in its language); healthStateName() stays for data.
QString healthStateText(HealthState state);
// "up · 42 ms", "down · refused", "not checkable", "unknown".
QString healthText(const HealthRecord *record);
// The last check: when, outcome, latency, consecutive counts and the last error. Credentials in
// the error are masked unless credentialsShown.
QString healthTooltip(const HealthRecord *record, qint64 nowMs, bool credentialsShown);
// For sorting: up (fastest first), down, not checkable, unknown.
double healthSortKey(const HealthRecord *record);

} // namespace poolscope
