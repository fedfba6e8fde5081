// Command ictal holds ictal's offline tools: synthetic EEG, EDF inspection,
// capture from hardware, replay and scoring, training, and the reproduction
// of Wang & Pineau's experiments. Machine-readable output is JSON Lines or
// CSV on stdout; progress and diagnostics go to stderr.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// command is one subcommand of ictal.
type command struct {
	summary string
	// run executes the command with its arguments (after the command name),
	// writing results to stdout and diagnostics to stderr.
	run func(args []string, stdout, stderr io.Writer) error
}

// commands lists the subcommands in the order usage prints them, as the
// go command lists its own: one entry here, one file (NAME.go)
// implementing it. cmd/ictald dispatches the same way.
var commands = []struct {
	name string
	command
}{
	{"synth", command{"write a simulated patient's EEG as an EDF+ file with seizure annotations", runSynth}},
	{"edf", command{"inspect EDF/EDF+/BDF files: edf info FILE, edf cat FILE", runEDF}},
	{"convert", command{"write any recording ictal reads (EDF, BDF, OpenBCI GUI, BrainFlow) as EDF+ or BDF+", runConvert}},
	{"capture", command{"capture frames from hardware as CSV", runCapture}},
	{"train", command{"bootstrap a patient-specific model from annotated EDF recordings", runTrain}},
	{"replay", command{"run the pipeline over a recording as fast as possible and report its events", runReplay}},
	{"score", command{"score detections against reference seizures (SzCORE event and sample scoring)", runScore}},
	{"bonn", command{"Bonn epilepsy EEG benchmark and continuous recordings spliced from its segments", runBonn}},
	{"paper", command{"reproduce Wang & Pineau's experiments: cv, drift, curve, plots", runPaper}},
	{"watch", command{"print seizure alerts and monitor status from the MQTT broker, one line per message", runWatch}},
	{"feedback", command{"send a clinician's verdict on an alert, or a labelled interval, to a bed's monitor over MQTT", runFeedback}},
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: ictal COMMAND [flags]  (ictal COMMAND -h for help)")
	fmt.Fprintln(w, "commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches args to a subcommand and returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		if err := c.run(args[1:], stdout, stderr); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			fmt.Fprintf(stderr, "ictal %s: %v\n", args[0], err)
			return 1
		}
		return 0
	}
	fmt.Fprintf(stderr, "ictal: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}
