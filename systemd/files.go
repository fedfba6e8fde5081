package systemd

import _ "embed"

// SampleConfig is ictald.toml, the commented sample configuration.
//
//go:embed ictald.toml
var SampleConfig string

// Unit is ictald.service, the hardened systemd unit for a serial amplifier.
//
//go:embed ictald.service
var Unit string

// Sysusers is ictald.sysusers.conf, the sysusers.d(5) entry that creates
// the unit's user.
//
//go:embed ictald.sysusers.conf
var Sysusers string
