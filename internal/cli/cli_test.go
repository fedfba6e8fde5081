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
		{[]string{"-h"}, 0, "  ok         succeeds", ""},
		{[]string{"nope"}, 2, "", `prog: unknown command "nope"`},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := Run("prog", cmds, tt.args, &stdout, &stderr)
		if code != tt.code || !strings.Contains(stdout.String(), tt.stdout) || !strings.Contains(stderr.String(), tt.stderr) {
			t.Errorf("Run(%q) = %d, stdout %q, stderr %q", tt.args, code, stdout.String(), stderr.String())
		}
	}
}
