package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/ictal/ictal/internal/cli"
)

// newFlags returns the flag set of the command name (such as "edf cat"),
// which reports its errors on stderr and whose Usage prints usage (one
// line or more) and then the defaults of the flags, on -h and wherever a
// command calls fs.Usage.
func newFlags(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseNoArgs is cli.ParseNoArgs.
var parseNoArgs = cli.ParseNoArgs

// parseArgs parses args with fs, flags before and after the positional
// arguments, and wants n of them; with any other number it prints the
// usage and returns the error want.
func parseArgs(fs *flag.FlagSet, args []string, n int, want string) error {
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != n {
		fs.Usage()
		return errors.New(want)
	}
	return nil
}

// alias makes old another name of the flag name, for the scripts and
// notes that spell it the old way; -h lists it as deprecated.
func alias(fs *flag.FlagSet, old, name string) {
	fs.Var(fs.Lookup(name).Value, old, "deprecated: the same as -"+name)
}

// needSubcommand answers a command made of subcommands (edf, model,
// paper) called with nothing or with -h: it prints usage on stderr and
// returns the error missing, or flag.ErrHelp. It returns nil when args[0]
// is for the command to dispatch.
func needSubcommand(args []string, usage, missing string, stderr io.Writer) error {
	if len(args) > 0 && args[0] != "-h" && args[0] != "-help" && args[0] != "--help" {
		return nil
	}
	fmt.Fprintln(stderr, usage)
	if len(args) == 0 {
		return errors.New(missing)
	}
	return flag.ErrHelp
}
