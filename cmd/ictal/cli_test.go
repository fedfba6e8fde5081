package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runIctal runs ictal with args (a command and its arguments) and returns
// what it printed and its exit code.
func runIctal(args ...string) (stdout, stderr string, code int) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return o.String(), e.String(), code
}

// mustRun runs ictal with each of cmds (a command and its arguments) in
// turn, failing the test at the first that exits non-zero.
func mustRun(t *testing.T, cmds ...[]string) {
	t.Helper()
	for _, args := range cmds {
		if _, stderr, code := runIctal(args...); code != 0 {
			t.Fatalf("%v: %s", args, stderr)
		}
	}
}

// helpArgs are every command and subcommand of ictal, asked for help.
var helpArgs = [][]string{
	{"synth"}, {"edf", "info"}, {"edf", "cat"}, {"convert"}, {"capture"}, {"train"}, {"replay"}, {"model", "info"},
	{"score"}, {"chbmit"}, {"siena"}, {"bonn", "cv"}, {"bonn", "train-test"}, {"bonn", "concat"}, {"bonn", "concat-eval"},
	{"paper", "cv"}, {"paper", "drift"}, {"paper", "curve"}, {"paper", "plots"},
	{"watch"}, {"board"}, {"board", "user", "add"}, {"feedback"},
}

// flagLine is a flag's first line in -h: "  -name", "  -name TYPE" or
// "  -v<tab>usage".
var flagLine = regexp.MustCompile(`^  -[a-z0-9-]+( [A-Za-z0-9.]+)?$`)

// TestHelpFlagNames checks every command's -h: each flag's line names
// the flag and at most one word for its value (the flag package turns
// text in backquotes into that word: "model trained by `ictal train`"
// printed "-model ictal train").
func TestHelpFlagNames(t *testing.T) {
	for _, c := range commands {
		found := false
		for _, a := range helpArgs {
			found = found || a[0] == c.Name
		}
		if !found && c.Name != "version" {
			t.Errorf("command %q is not in helpArgs", c.Name)
		}
	}
	for _, args := range helpArgs {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run(append(args, "-h"), &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			for _, l := range strings.Split(errb.String(), "\n") {
				if !strings.HasPrefix(l, "  -") {
					continue
				}
				head, _, _ := strings.Cut(l, "\t")
				if !flagLine.MatchString(head) {
					t.Errorf("flag line %q", l)
				}
			}
		})
	}
}

// TestFlagsAfterArguments: flags may follow the positional arguments.
func TestFlagsAfterArguments(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "rec.edf")
	if _, errOut, code := runIctal("synth", "-duration", "20s", "-channels", "2", "-seizures", "0", "-o", rec); code != 0 {
		t.Fatal(errOut)
	}
	tests := []struct {
		name string
		args []string
		code int
		want string // in stderr, or stdout when code is 0
	}{
		{"replay FILE -flag", []string{"replay", rec, "-learn", "bogus"}, 1, `-learn "bogus": want annotations or off`},
		{"replay FILE -model", []string{"replay", rec, "-model", filepath.Join(dir, "none.model")}, 1, "none.model"},
		{"train FILE -o", []string{"train", rec, "-o", filepath.Join(dir, "m"), "-algorithm", "XYZ"}, 1, `-algorithm XYZ: unknown`},
		{"convert IN OUT -flag", []string{"convert", rec, filepath.Join(dir, "out.edf"), "-board", "cyton"}, 0, `"out":`},
		{"model info FILE -h", []string{"model", "info", filepath.Join(dir, "none.model"), "-h"}, 0, ""},
		{"edf info FILE -text", []string{"edf", "info", rec, "-text"}, 0, "3 signals"},
		{"two files", []string{"edf", "info", rec, rec}, 1, "more than one file"},
		{"-- ends the flags", []string{"edf", "info", "--", "-text"}, 1, "-text"},
		{"synth: no positional argument", []string{"synth", "x", "-o", filepath.Join(dir, "s.edf")}, 1, `unexpected argument "x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runIctal(tt.args...)
			got := errOut
			if tt.code == 0 {
				got = out
			}
			if code != tt.code || !strings.Contains(got, tt.want) {
				t.Errorf("exit %d, stdout %.300q, stderr %.300q; want %d and %q", code, out, errOut, tt.code, tt.want)
			}
		})
	}
}

// TestOneNameForOneThing: -o names the output file or folder everywhere,
// -algorithm, -learner and -mode the algorithms, learners and modes; the
// older spellings still work and -h calls them deprecated.
func TestOneNameForOneThing(t *testing.T) {
	tests := []struct {
		args []string
		want []string // in -h
	}{
		{[]string{"synth"}, []string{"  -o FILE"}},
		{[]string{"train"}, []string{"  -o MODEL", "  -algorithm string", "  -learner string"}},
		{[]string{"replay"}, []string{"  -o MODEL", "  -model MODEL", "  -save string\n    \tdeprecated: the same as -o", "  -algorithm string"}},
		{[]string{"bonn", "concat"}, []string{"  -o string", "  -algorithm string"}},
		{[]string{"paper", "plots"}, []string{"  -o DIR", "  -out string\n    \tdeprecated: the same as -o"}},
		{[]string{"paper", "cv"}, []string{"  -algorithm string", "  -learner string", "  -mode string", "  -algorithms string\n    \tdeprecated: the same as -algorithm"}},
		{[]string{"paper", "curve"}, []string{"  -algorithm string", "  -learners string\n    \tdeprecated: the same as -learner"}},
		{[]string{"paper", "drift"}, []string{"  -learner string"}},
	}
	for _, tt := range tests {
		_, errOut, _ := runIctal(append(tt.args, "-h")...)
		for _, w := range tt.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%v -h lacks %q:\n%s", tt.args, w, errOut)
			}
		}
	}
	// The deprecated name sets the same flag.
	dir := t.TempDir()
	in := filepath.Join(dir, "cv.jsonl")
	os.WriteFile(in, []byte(`{"type":"cv","dataset":"d","algorithm":"UOB","learner":"nb","mode":"online","folds":2,"auc_mean":0.9,"auc_std":0.01}`+"\n"), 0o644)
	for _, name := range []string{"-o", "-out"} {
		if _, errOut, code := runIctal("paper", "plots", "-in", in, name, filepath.Join(dir, name)); code != 0 {
			t.Errorf("paper plots %s: exit %d %s", name, code, errOut)
		}
	}
}
