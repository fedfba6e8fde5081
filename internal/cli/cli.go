// Package cli dispatches the subcommands of ictal's two binaries the same
// way: an ordered list of commands, each a name, a one-line summary and a
// function that parses its own flags; usage is built from the list.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// Command is one subcommand.
type Command struct {
	Name    string
	Summary string
	// Run executes the command with its arguments (after its name),
	// writing results to stdout and diagnostics to stderr.
	Run func(args []string, stdout, stderr io.Writer) error
}

// Usage prints the program's commands in order.
func Usage(w io.Writer, prog string, cmds []Command) {
	fmt.Fprintf(w, "usage: %s COMMAND [flags]  (%s COMMAND -h for help)\n", prog, prog)
	fmt.Fprintln(w, "commands:")
	for _, c := range cmds {
		fmt.Fprintf(w, "  %-10s %s\n", c.Name, c.Summary)
	}
}

// Logged marks err as already logged by the command (a daemon logs its
// failure at ERROR, where the journal files it by priority): Run exits 1
// without printing it again. Logged(nil) is nil.
func Logged(err error) error {
	if err == nil {
		return nil
	}
	return logged{err}
}

type logged struct{ error }

func (l logged) Unwrap() error { return l.error }

// Run dispatches args to one of cmds and returns the exit code: 0 on
// success or help, 1 when the command failed (its error printed as
// "prog name: error" unless Logged), 2 for no or an unknown command.
func Run(prog string, cmds []Command, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		Usage(stderr, prog, cmds)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		Usage(stdout, prog, cmds)
		return 0
	}
	for _, c := range cmds {
		if c.Name != args[0] {
			continue
		}
		if err := c.Run(args[1:], stdout, stderr); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			if !errors.As(err, new(logged)) {
				fmt.Fprintf(stderr, "%s %s: %v\n", prog, args[0], err)
			}
			return 1
		}
		return 0
	}
	fmt.Fprintf(stderr, "%s: unknown command %q\n", prog, args[0])
	Usage(stderr, prog, cmds)
	return 2
}

// Parse parses args with fs, flags and positional arguments in any order
// ("replay rec.edf -model m" as "replay -model m rec.edf"), and leaves
// the positional arguments, in order, in fs.Args. After "--" everything is
// positional.
func Parse(fs *flag.FlagSet, args []string) error {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			pos = append(pos, rest...)
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	return fs.Parse(append([]string{"--"}, pos...))
}

// ParseNoArgs parses args with fs as Parse does and refuses a positional
// argument, naming the first ("ictald run x -config f" would otherwise
// ignore x).
func ParseNoArgs(fs *flag.FlagSet, args []string) error {
	if err := Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return nil
}
