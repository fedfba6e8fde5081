// Command ictal holds ictal's offline tools: synthetic EEG, EDF inspection,
// capture from hardware, replay and scoring, training and model inspection, and the reproduction
// of Wang & Pineau's experiments. Machine-readable output is JSON Lines or
// CSV on stdout; progress and diagnostics go to stderr.
package main

import (
	"io"
	"os"

	"github.com/ictal/ictal/internal/cli"
)

// version, when set at build time (-ldflags "-X main.version=v1.2.3", as
// cross/build does), replaces the module version of the build information.
var version = "dev"

// build is how this binary was built; `ictal version` prints it and model
// files record it (modelfile.Meta.Program).
var build = cli.ReadBuild(version)

// commands lists the subcommands in the order usage prints them, as the
// go command lists its own: one entry here, one file (NAME.go)
// implementing it. cmd/ictald dispatches the same way (internal/cli).
var commands = []cli.Command{
	{Name: "synth", Summary: "write a simulated patient's EEG as an EDF+ file with seizure annotations", Run: runSynth},
	{Name: "edf", Summary: "inspect EDF/EDF+/BDF files: edf info [-text] FILE, edf cat FILE", Run: runEDF},
	{Name: "convert", Summary: "write any recording ictal reads (EDF, BDF, OpenBCI GUI, BrainFlow) as EDF+ or BDF+", Run: runConvert},
	{Name: "capture", Summary: "capture frames from hardware (an OpenBCI Cyton over serial, an ADS1299 over SPI) as CSV", Run: runCapture},
	{Name: "train", Summary: "bootstrap a patient-specific model from annotated EDF recordings", Run: runTrain},
	{Name: "replay", Summary: "run the pipeline over a recording as fast as possible and report its events", Run: runReplay},
	{Name: "model", Summary: "inspect model files: model info FILE prints how a model was built, as JSON", Run: runModel},
	{Name: "score", Summary: "score detections against reference seizures (SzCORE event and sample scoring)", Run: runScore},
	{Name: "chbmit", Summary: "CHB-MIT with Shoeb's protocol: patient-specific, leave one record out, SzCORE event scores", Run: runCHBMIT},
	{Name: "siena", Summary: "the Siena Scalp EEG Database with the same protocol as chbmit", Run: runSiena},
	{Name: "bonn", Summary: "Bonn epilepsy EEG benchmark and continuous recordings spliced from its segments", Run: runBonn},
	{Name: "paper", Summary: "reproduce Wang & Pineau's experiments: cv, drift, curve, plots", Run: runPaper},
	{Name: "watch", Summary: "print seizure alerts and monitor status from the MQTT broker, one line per message", Run: runWatch},
	{Name: "board", Summary: "serve the clinicians' ward board: beds, alerts with their EEG, acknowledgement and feedback, in a browser", Run: runBoard},
	{Name: "feedback", Summary: "send a clinician's verdict on an alert, or a labelled interval, to a bed's monitor over MQTT", Run: runFeedback},
	cli.VersionCommand("ictal", build),
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches args to a subcommand and returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	return cli.Run("ictal", commands, args, stdout, stderr)
}
