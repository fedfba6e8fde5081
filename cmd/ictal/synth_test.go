package main

import (
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
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

// The seizure and artifact kinds and the accelerometer, through the file:
// annotated by kind (the seizures still found by the word "seizure"), the
// summary lists them, and replay serves the EEG without the accelerometer.
func TestSynthWritesKindsAndAccelerometer(t *testing.T) {
	file := filepath.Join(t.TempDir(), "kinds.edf")
	out, errOut, code := runIctal("synth", "-o", file, "-duration", "20m", "-channels", "4", "-rate", "100", "-seizures", "3", "-seed", "5",
		"-seizure-kinds", "lvfa-onset,gtcs,absence", "-artifact-kinds", "chewing,sweat", "-artifacts-per-hour", "30", "-accelerometer")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var summary synthSummary
	if err := json.Unmarshal([]byte(out), &summary); err != nil {
		t.Fatalf("stdout %q: %v", out, err)
	}
	cfg := synth.Config{Channels: 4, Rate: 100, Duration: 20 * time.Minute, Seizures: 3, Seed: 5,
		BlinksPerMinute: 6, MusclePerMinute: 0.5, SeizureMin: 30 * time.Second, SeizureMax: 90 * time.Second,
		SeizureKinds:  []synth.SeizureKind{synth.SeizureLVFAOnset, synth.SeizureTonicClonic, synth.SeizureAbsence},
		ArtifactKinds: []synth.ArtifactKind{synth.ArtifactChewing, synth.ArtifactSweat}, ArtifactsPerHour: 30, Accelerometer: true}
	want, err := synth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !summary.Accelerometer || summary.Channels != 4 || len(summary.Seizures) != 3 || summary.Clipped != 0 {
		t.Fatalf("summary %+v", summary)
	}
	for i, z := range want.Seizures() {
		got := summary.Seizures[i]
		if got.Kind != string(z.Kind) || got.Onset != z.Start.Seconds() || got.Tonic != z.Tonic.Seconds() {
			t.Errorf("summary seizure %d = %+v, want %s at %v (tonic %v)", i, got, z.Kind, z.Start, z.Tonic)
		}
	}
	if summary.Seizures[1].Tonic < 10 || summary.Seizures[1].Tonic > 20 {
		t.Errorf("the tonic-clonic seizure's tonic phase lasts %v s", summary.Seizures[1].Tonic)
	}
	var wantArt []synthArtifact
	for _, iv := range want.Intervals() {
		if iv.Text == "artifact: chewing" || iv.Text == "artifact: sweat" {
			wantArt = append(wantArt, synthArtifact{Kind: strings.TrimPrefix(iv.Text, "artifact: "), Onset: iv.Start.Seconds(), Duration: (iv.End - iv.Start).Seconds()})
		}
	}
	if len(wantArt) < 2 || !slices.Equal(summary.Artifacts, wantArt) {
		t.Errorf("summary artifacts %+v, want %+v", summary.Artifacts, wantArt)
	}

	r, err := edf.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	h := r.Header()
	if len(h.Signals) != 8 {
		t.Fatalf("%d signals, want 4 EEG, 3 accelerometer and the annotations", len(h.Signals))
	}
	for i, l := range []string{"Accel X", "Accel Y", "Accel Z"} {
		if s := h.Signals[4+i]; s.Label != l || s.PhysicalDimension != "g" || s.PhysicalMin != -8 || s.PhysicalMax != 8 || s.SamplesPerRecord != 100 {
			t.Errorf("signal %d: %+v", 4+i, s)
		}
	}
	r.Close()

	rp, err := edf.OpenReplay(file, edf.ReplayConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer rp.Close()
	kinds := map[string]bool{}
	for _, iv := range rp.Intervals() {
		if iv.Seizure {
			kinds[iv.Text] = true
		}
		if strings.HasPrefix(iv.Text, "artifact:") && iv.Seizure {
			t.Errorf("artifact %q read as a seizure", iv.Text)
		}
	}
	if !kinds["seizure: lvfa-onset"] || !kinds["seizure: gtcs"] || !kinds["seizure: absence"] || len(kinds) != 3 {
		t.Errorf("replay finds seizures %v", kinds)
	}
	src, choice, err := acquire.SelectEEG(rp, nil)
	if err != nil || len(choice.Used) != 4 || len(choice.Omitted) != 3 || len(src.Info().Channels) != 4 {
		t.Fatalf("SelectEEG: %+v, %v", choice, err)
	}
	// The samples read back: the EEG within half a 16-bit step of
	// ±3200 µV, the accelerometer within half a step of ±8 g.
	fa, fb := acquire.NewFrame(7), acquire.NewFrame(7)
	worst := [2]float64{}
	for {
		errA, errB := rp.ReadFrame(fa), want.ReadFrame(fb)
		if errors.Is(errA, io.EOF) && errors.Is(errB, io.EOF) {
			break
		}
		if errA != nil || errB != nil {
			t.Fatalf("frame %d: replay %v, synth %v", fb.Seq, errA, errB)
		}
		for c := range fa.Samples {
			worst[c/4] = max(worst[c/4], math.Abs(fa.Samples[c]-fb.Samples[c]))
		}
	}
	if worst[0] > 6400.0/65535/2+1e-9 || worst[1] > 16.0/65535/2+1e-9 {
		t.Errorf("read back within %.4f µV (EEG) and %.6f g (accelerometer)", worst[0], worst[1])
	}
}

func TestSynthRejectsBadKinds(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown seizure kind", []string{"-seizure-kinds", "lvfa-onset,tonic"}, `-seizure-kinds: unknown seizure kind "tonic"`},
		{"unknown artifact kind", []string{"-artifact-kinds", "blink"}, `-artifact-kinds: unknown artifact kind "blink"`},
		{"repeated artifact kind", []string{"-artifact-kinds", "sweat,sweat"}, `"sweat" listed twice`},
		{"no artifact rate", []string{"-artifact-kinds", "sweat", "-artifacts-per-hour", "0"}, "-artifacts-per-hour 0"},
		{"artifact rate too high", []string{"-artifact-kinds", "sweat", "-artifacts-per-hour", "500"}, "ArtifactsPerHour"},
		{"tonic-clonic seizures do not fit", []string{"-duration", "5m", "-seizures", "3", "-seizure-kinds", "gtcs"}, "Seizures"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := runIctal(append([]string{"synth", "-o", filepath.Join(t.TempDir(), "x.edf")}, tt.args...)...)
			if code != 1 || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit 1 mentioning %q", code, errOut, tt.want)
			}
		})
	}
}

func TestSynthHelpListsKinds(t *testing.T) {
	_, errOut, code := runIctal("synth", "-h")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, k := range synth.SeizureKinds() {
		if !strings.Contains(errOut, "  "+string(k)+" ") {
			t.Errorf("-h does not list seizure kind %s", k)
		}
	}
	for _, k := range synth.ArtifactKinds() {
		if !strings.Contains(errOut, "  "+string(k)+" ") {
			t.Errorf("-h does not list artifact kind %s", k)
		}
	}
	for _, f := range []string{"-seizure-kinds", "-artifact-kinds", "-artifacts-per-hour", "-accelerometer"} {
		if !strings.Contains(errOut, f) {
			t.Errorf("-h does not mention %s", f)
		}
	}
}
