package main

import (
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/edf"
	"github.com/ictal/ictal/acquire/synth"
)

func TestSynthWritesTheSimulatedPatientAsEDFPlus(t *testing.T) {
	file := filepath.Join(t.TempDir(), "patient.edf")
	out, errOut, code := runIctal("synth", "-o", file, "-duration", "5m", "-channels", "6", "-rate", "200", "-seizures", "2", "-seed", "7")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "100%") {
		t.Errorf("no progress on stderr: %q", errOut)
	}
	var summary synthSummary
	if err := json.Unmarshal([]byte(out), &summary); err != nil || strings.Count(out, "\n") != 1 {
		t.Fatalf("stdout %q: %v", out, err)
	}

	// The same patient, generated directly.
	cfg := synth.DefaultConfig()
	cfg.Duration, cfg.Channels, cfg.Rate, cfg.Seizures, cfg.Seed = 5*time.Minute, 6, 200, 2, 7
	want, err := synth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(summary.Seizures) != 2 || summary.Seizures[0].Onset != want.Seizures()[0].Start.Seconds() || summary.Clipped != 0 {
		t.Errorf("summary %+v", summary)
	}

	r, err := edf.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	h := r.Header()
	if h.Reserved != "EDF+C" || h.Records != 300 || h.RecordDuration != time.Second || len(h.Signals) != 7 {
		t.Errorf("header: %q, %d records of %v, %d signals", h.Reserved, h.Records, h.RecordDuration, len(h.Signals))
	}
	for i, l := range synth.DefaultLabels(6) {
		s := h.Signals[i]
		if s.Label != "EEG "+l || s.PhysicalDimension != "uV" || s.PhysicalMin != -3200 || s.PhysicalMax != 3200 ||
			s.DigitalMin != -32768 || s.DigitalMax != 32767 || s.SamplesPerRecord != 200 {
			t.Errorf("signal %d: %+v", i, s)
		}
	}
	anns, err := r.Annotations()
	if err != nil {
		t.Fatal(err)
	}
	var got []acquire.Interval
	for _, a := range anns {
		if a.Text != "" {
			got = append(got, acquire.Interval{Start: a.Onset, End: a.Onset + a.Duration, Text: a.Text})
		}
	}
	wantIv := want.Intervals()
	if len(got) != len(wantIv) {
		t.Fatalf("%d annotations, want %d", len(got), len(wantIv))
	}
	seizures := 0
	for i := range wantIv {
		w := wantIv[i]
		w.Seizure = false
		if got[i] != w {
			t.Errorf("annotation %d = %+v, want %+v", i, got[i], w)
		}
		if got[i].Text == "seizure" {
			seizures++
		}
	}
	if seizures != 2 {
		t.Errorf("%d seizure annotations, want 2", seizures)
	}
	r.Close()

	// The samples read back equal the patient's to within half a step of
	// the 16-bit resolution.
	rp, err := edf.OpenReplay(file, edf.ReplayConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer rp.Close()
	var rpSeizures int
	for _, iv := range rp.Intervals() {
		if iv.Seizure {
			rpSeizures++
		}
	}
	if rpSeizures != 2 {
		t.Errorf("replay finds %d seizures, want 2", rpSeizures)
	}
	step := 6400.0 / 65535
	fa, fb := acquire.NewFrame(6), acquire.NewFrame(6)
	worst := 0.0
	for n := 0; ; n++ {
		errA, errB := rp.ReadFrame(fa), want.ReadFrame(fb)
		if errors.Is(errA, io.EOF) && errors.Is(errB, io.EOF) {
			if n != 60000 {
				t.Errorf("%d frames, want 60000", n)
			}
			break
		}
		if errA != nil || errB != nil {
			t.Fatalf("frame %d: replay %v, synth %v", n, errA, errB)
		}
		if fa.Seq != fb.Seq || fa.Time != fb.Time {
			t.Fatalf("frame %d: replay stamps %d %v, synth %d %v", n, fa.Seq, fa.Time, fb.Seq, fb.Time)
		}
		for c := range fa.Samples {
			worst = max(worst, math.Abs(fa.Samples[c]-fb.Samples[c]))
		}
	}
	if worst > step/2+1e-9 {
		t.Errorf("samples differ by up to %.4f µV, more than half a step (%.4f µV)", worst, step/2)
	}
}

func TestSynthRejectsBadFlags(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no output", []string{"-duration", "1m"}, "-o is required"},
		{"zero duration", []string{"-o", "x.edf", "-duration", "0s"}, "-duration"},
		{"fractional duration", []string{"-o", "x.edf", "-duration", "1.5s"}, "-duration"},
		{"no channels", []string{"-o", "x.edf", "-channels", "0"}, "-channels"},
		{"too many channels", []string{"-o", "x.edf", "-channels", "65"}, "Channels"},
		{"rate too low", []string{"-o", "x.edf", "-rate", "10"}, "Rate"},
		{"seizures do not fit", []string{"-o", "x.edf", "-duration", "2m", "-seizures", "3"}, "Seizures"},
		{"negative blinks", []string{"-o", "x.edf", "-blinks", "-1"}, "BlinksPerMinute"},
		{"stray argument", []string{"-o", "x.edf", "extra"}, "unexpected argument"},
		{"unwritable file", []string{"-o", filepath.Join(dir, "missing", "x.edf"), "-duration", "3m", "-seizures", "1"}, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := runIctal(append([]string{"synth"}, tt.args...)...)
			if code != 1 || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit 1 mentioning %q", code, errOut, tt.want)
			}
		})
	}
	if _, err := os.Stat("x.edf"); err == nil {
		t.Error("a rejected command left x.edf behind")
	}
}

func TestSynthHelp(t *testing.T) {
	_, errOut, code := runIctal("synth", "-h")
	if code != 0 || !strings.Contains(errOut, "usage: ictal synth -o FILE.edf") || !strings.Contains(errOut, "-seizures") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
