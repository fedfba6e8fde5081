package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ictal/ictal/internal/modelfile"
	"github.com/ictal/ictal/internal/syncbuf"
)

// TestRunSetsAsideWhatIsNoCheckpoint: whatever lies at checkpoint.path —
// a link to /dev/zero (which used to be read until memory ran out), a
// FIFO (whose open blocked before the first window), a file larger than
// any model makes — the daemon logs why it is unusable, sets it aside as
// it does a corrupt checkpoint, monitors from the day-one model and
// writes a good checkpoint in its place.
func TestRunSetsAsideWhatIsNoCheckpoint(t *testing.T) {
	tests := []struct {
		name   string
		make   func(path string) error
		reason string // in the log
	}{
		{"link to /dev/zero", func(p string) error { return os.Symlink("/dev/zero", p) }, "not a regular file (a character device, through a symbolic link to /dev/zero)"},
		{"FIFO", func(p string) error { return syscall.Mkfifo(p, 0o600) }, "not a regular file (a FIFO)"},
		{"larger than any model", func(p string) error {
			f, err := os.Create(p)
			if err != nil {
				return err
			}
			return errors.Join(f.Truncate(modelfile.MaxSize+1), f.Close()) // sparse
		}, fmt.Sprintf("%d bytes, more than the %d it may have", modelfile.MaxSize+1, modelfile.MaxSize)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			ckpt := filepath.Join(dir, "model.ckpt")
			if err := tt.make(ckpt); err != nil {
				t.Fatal(err)
			}
			cfg, err := ParseConfig("[source]\ntype = \"synth\"\nchannels = 4\nspeed = 200\nseizures = 0\nduration = \"1m\"\n"+outputsIn(dir), "test.toml")
			if err != nil {
				t.Fatal(err)
			}
			var logs syncbuf.Buffer
			done := make(chan error, 1)
			go func() { done <- Run(context.Background(), cfg, slog.New(slog.NewTextHandler(&logs, nil)), Options{}) }()
			select {
			case err = <-done:
			case <-time.After(2 * time.Minute): // a failure detector, not a timing requirement
				if w, err := os.OpenFile(ckpt, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					w.Close() // release an open blocked on the FIFO, so the test ends
				}
				t.Fatalf("Run did not end\n%s", logs.String())
			}
			if err != nil {
				t.Fatalf("Run: %v\n%s", err, logs.String())
			}
			for _, want := range []string{`msg="checkpoint unusable, set aside; starting without it"`, tt.reason, `from="the day-one model"`} {
				if !strings.Contains(logs.String(), want) {
					t.Errorf("log lacks %q:\n%s", want, logs.String())
				}
			}
			if set, _ := filepath.Glob(ckpt + ".corrupt-*"); len(set) != 1 {
				t.Errorf("set aside as %v", set)
			}
			if _, _, err := modelfile.ReadFile(ckpt); err != nil {
				t.Errorf("the checkpoint written at the end: %v", err)
			}
		})
	}
}

// TestCheckRefusesAModelThatIsNoFile: classifier.model naming a FIFO or a
// link to /dev/zero is refused by check (and so by run), naming the key,
// the path and what it is, without blocking or reading it: a configured
// model is refused as a corrupt one is.
func TestCheckRefusesAModelThatIsNoFile(t *testing.T) {
	dir := t.TempDir()
	zero, fifo := filepath.Join(dir, "zero.model"), filepath.Join(dir, "fifo.model")
	if err := errors.Join(os.Symlink("/dev/zero", zero), syscall.Mkfifo(fifo, 0o600)); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, path, what string }{
		{"link to /dev/zero", zero, "character device"},
		{"FIFO", fifo, "(a FIFO)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := ParseConfig(merge(checkBase(dir), fmt.Sprintf("[classifier]\nmodel = %q\n", tt.path)), "test.toml")
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cfg.Check(nil) }()
			select {
			case err = <-done:
			case <-time.After(time.Minute): // a failure detector, not a timing requirement
				if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					w.Close() // release a blocked open, so the test ends
				}
				t.Fatal("Check did not return")
			}
			if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "classifier.model: "+tt.path+": not a regular file") || !strings.Contains(err.Error(), tt.what) {
				t.Errorf("Check = %v; want classifier.model named with the path and %q", err, tt.what)
			}
		})
	}
}
