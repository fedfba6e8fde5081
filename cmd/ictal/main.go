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
	"sort"
)

// command is one subcommand of ictal.
type command struct {
	summary string
	// run executes the command with its arguments (after the command name),
	// writing results to stdout and diagnostics to stderr.
	run func(args []string, stdout, stderr io.Writer) error
}

// commands lists the subcommands. Each is implemented in its own file.
var commands = map[string]command{}

// register adds a subcommand; it is called from the init functions of the
// files that implement them.
func register(name, summary string, run func(args []string, stdout, stderr io.Writer) error) {
	if _, dup := commands[name]; dup {
		panic("ictal: command registered twice: " + name)
	}
	commands[name] = command{summary: summary, run: run}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: ictal COMMAND [flags]  (ictal COMMAND -h for help)")
	fmt.Fprintln(w, "commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
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
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "ictal: unknown command %q\n", args[0])
		usage(stderr)
		return 2
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
