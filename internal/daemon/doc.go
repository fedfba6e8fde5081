// Package daemon is what ictald runs: its configuration (the TOML file,
// validated in one place, errors naming the file's keys, every setting
// that could switch detection off or delay it held to the bounds of one
// table, bounds.go; Config.Check,
// which both `ictald check` and Run call, adds every check that needs the
// source's channels and rate or the files the configuration names, short
// of opening an amplifier), the source it
// builds from that configuration (synth; file: EDF, BDF, OpenBCI GUI or
// BrainFlow; openbci; ads1299 — relabelled by source.labels, paced by
// acquire.Paced), the model it starts with (checkpoint, trained model or
// a new one, with a corrupt checkpoint set aside instead of crash-looping),
// the sinks (JSON lines, MQTT), and Run, which wires them to one
// internal/pipeline and reports its progress to its owner (cmd/ictald:
// systemd notification, watchdog and SIGHUP reload, whose decision rule
// Run resolves as it resolved its own at start: pipelineConfig). Demo runs the same
// path on a simulated patient with an embedded broker.
package daemon
