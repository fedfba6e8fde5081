package recording

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/internal/datadir"
)

func TestOpen(t *testing.T) {
	eeg := filepath.Join(datadir.Dir(t), "data", "eeg")
	tests := []struct {
		path     string
		format   Format
		channels int
		rate     float64
		frames   int
	}{
		{"openbci/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt", GUI, 8, 250, 22490},
		{"edf-conformance/edfreader-r/edfPlusC.edf", EDF, 11, 200, 4000},
		{"edf-conformance/edfreader-r/bdfPlusC.bdf", BDF, 11, 200, 4000},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			r, format, err := Open(filepath.Join(eeg, tt.path), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			info := r.Info()
			if format != tt.format || len(info.Channels) != tt.channels || info.Rate != tt.rate {
				t.Fatalf("format %s, %d channels at %v Hz", format, len(info.Channels), info.Rate)
			}
			f := acquire.NewFrame(len(info.Channels))
			n := 0
			for ; ; n++ {
				if err := r.ReadFrame(f); err == io.EOF {
					break
				} else if err != nil {
					t.Fatal(err)
				}
			}
			if n != tt.frames {
				t.Errorf("%d frames, want %d", n, tt.frames)
			}
		})
	}
}

func TestOpenLabelsAndErrors(t *testing.T) {
	path := filepath.Join(datadir.Dir(t), "data", "eeg", "openbci", "OpenBCI_GUI-v6-blinks-jawClench-alpha.txt")
	labels := []string{"Fp1", "Fp2", "C3", "C4", "P7", "P8", "O1", "O2"}
	r, _, err := Open(path, &Opts{Labels: labels})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Info().Channels[7].Label; got != "O2" {
		t.Errorf("label %q", got)
	}
	r.Close()
	if _, _, err := Open(path, &Opts{Labels: labels[:2]}); err == nil {
		t.Error("2 labels for 8 channels accepted")
	}
	// Channels selects before Labels renames.
	r, _, err = Open(path, &Opts{Channels: []string{"EXG Channel 6", "EXG Channel 0"}, Labels: []string{"O1", "Fp1"}})
	if err != nil {
		t.Fatal(err)
	}
	if ch := r.Info().Channels; len(ch) != 2 || ch[0].Label != "O1" || ch[1].Label != "Fp1" {
		t.Errorf("selected and relabelled: %+v", ch)
	}
	r.Close()
	if _, _, err := Open(path, &Opts{Channels: []string{"Cz"}}); err == nil || !strings.Contains(err.Error(), `no channel "Cz"`) {
		t.Errorf("a channel the file lacks: %v", err)
	}
	junk := filepath.Join(t.TempDir(), "junk.bin")
	if err := os.WriteFile(junk, []byte("PK\x03\x04zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Open(junk, nil); !errors.Is(err, ErrUnknown) {
		t.Errorf("a zip file: %v", err)
	}
	if _, _, err := Open(filepath.Join(t.TempDir(), "missing.edf"), nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}

func TestSniff(t *testing.T) {
	tests := []struct {
		head string
		want Format
	}{
		{"0       ", EDF}, {"\xffBIOSEMI", BDF}, {"%OpenBCI Raw EXG Data", GUI},
		{"0.000000\t1.0", BrainFlow}, {"-3.5,", BrainFlow}, {"", ""}, {"hello", ""},
	}
	for _, tt := range tests {
		got, err := Sniff([]byte(tt.head))
		if got != tt.want || (tt.want == "") != errors.Is(err, ErrUnknown) {
			t.Errorf("Sniff(%q) = %q, %v", tt.head, got, err)
		}
	}
}
