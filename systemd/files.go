// Package systemd holds the files that install ictald as a service — the
// unit and the commented sample configuration — embedded so that the one
// binary can print them (`ictald config`, `ictald unit`).
package systemd

import _ "embed"

// SampleConfig is ictald.toml, the commented sample configuration.
//
//go:embed ictald.toml
var SampleConfig string
