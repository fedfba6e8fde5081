package cli

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	cmds := []Command{
		{"ok", "succeeds", func(args []string, stdout, _ io.Writer) error {
			_, err := io.WriteString(stdout, strings.Join(args, " "))
			return err
		}},
		{"fail", "fails", func([]string, io.Writer, io.Writer) error { return errors.New("boom") }},
		{"logged", "fails and logged why", func([]string, io.Writer, io.Writer) error { return Logged(errors.New("boom")) }},
		{"help", "asks for help", func([]string, io.Writer, io.Writer) error { return flag.ErrHelp }},
	}
	tests := []struct {
		args           []string
		code           int
		stdout, stderr string
	}{
		{nil, 2, "", "usage: prog COMMAND"},
		{[]string{"ok", "a", "b"}, 0, "a b", ""},
		{[]string{"fail"}, 1, "", "prog fail: boom"},
		{[]string{"logged"}, 1, "", ""},
		{[]string{"-h"}, 0, "  ok         succeeds", ""},
		{[]string{"nope"}, 2, "", `prog: unknown command "nope"`},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := Run("prog", cmds, tt.args, &stdout, &stderr)
		if code != tt.code || !strings.Contains(stdout.String(), tt.stdout) || !strings.Contains(stderr.String(), tt.stderr) ||
			tt.stderr == "" && stderr.Len() > 0 {
			t.Errorf("Run(%q) = %d, stdout %q, stderr %q", tt.args, code, stdout.String(), stderr.String())
		}
	}
}

func TestLoggedKeepsTheError(t *testing.T) {
	boom := errors.New("boom")
	if err := Logged(boom); !errors.Is(err, boom) || err.Error() != "boom" {
		t.Errorf("Logged(boom) = %v", err)
	}
	if Logged(nil) != nil {
		t.Error("Logged(nil) is not nil")
	}
}
