package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/edf"
	"github.com/ictal/ictal/acquire/synth"
)

// synthRange is the physical range written for every EEG channel, in µV:
// wide enough that seizures (a few hundred µV) and blinks (up to 300 µV)
// never clip, with 16-bit samples a resolution of 6400/65535 ≈ 0.098 µV.
const synthRange = 3200.0

// accelRange is the physical range of the accelerometer channels, in g
// (±8 g, a resolution of 0.24 mg).
const accelRange = 8.0

// synthSeizure describes one seizure in the summary printed on stdout.
type synthSeizure struct {
	Kind     string   `json:"kind"`
	Onset    float64  `json:"onset"`
	Duration float64  `json:"duration"`
	Tonic    float64  `json:"tonic,omitempty"` // gtcs: seconds of tonic phase
	Focus    []string `json:"focus"`
	StartHz  float64  `json:"start_hz"`
	EndHz    float64  `json:"end_hz"`
	Reached  int      `json:"channels_reached"`
}

// synthArtifact is one artifact of -artifact-kinds in the summary.
type synthArtifact struct {
	Kind     string  `json:"kind"`
	Onset    float64 `json:"onset"`
	Duration float64 `json:"duration"`
}

// synthSummary is the JSON line printed on stdout after the file is written.
type synthSummary struct {
	Type        string         `json:"type"` // "synth"
	File        string         `json:"file"`
	Channels    int            `json:"channels"`
	Rate        int            `json:"rate"`
	Duration    float64        `json:"duration"`
	Seed        uint64         `json:"seed"`
	Resolution  float64        `json:"resolution_uv"`
	Clipped     int64          `json:"clipped"`
	Annotations int            `json:"annotations"`
	Seizures    []synthSeizure `json:"seizures"`
	// Artifacts lists the artifacts of -artifact-kinds (not blinks or
	// muscle bursts), in order.
	Artifacts     []synthArtifact `json:"artifacts,omitempty"`
	Accelerometer bool            `json:"accelerometer,omitempty"`
}

// runSynth implements `ictal synth -o FILE.edf [-duration 30m] [-channels 8]
// [-rate 256] [-seizures 2] [-seizure-kinds LIST] [-artifact-kinds LIST]
// [-accelerometer] [-seed 1] [-blinks 6] [-muscle 0.5]`.
func runSynth(args []string, stdout, stderr io.Writer) error {
	def := synth.DefaultConfig()
	var kinds strings.Builder
	kinds.WriteString("Seizure kinds (-seizure-kinds, taken in turn; annotated \"seizure: KIND\", rhythmic \"seizure\"):\n")
	for _, k := range synth.SeizureKinds() {
		fmt.Fprintf(&kinds, "  %-15s %s\n", k, k.About())
	}
	kinds.WriteString("Artifact kinds that mimic seizures (-artifact-kinds; annotated \"artifact: KIND\"):\n")
	for _, k := range synth.ArtifactKinds() {
		fmt.Fprintf(&kinds, "  %-15s %s\n", k, k.About())
	}
	fs := newFlags("synth", "usage: ictal synth -o FILE.edf [-duration 30m] [-channels 8] [-rate 256] [-seizures 2] [-seizure-kinds LIST]\n"+
		"                   [-artifact-kinds LIST] [-artifacts-per-hour 6] [-accelerometer] [-seed 1] [-blinks 6] [-muscle 0.5]\n"+
		"Writes a simulated patient's EEG as an EDF+ file: one-second records, channels \"EEG Fp1-F7\" …\n"+
		fmt.Sprintf("in uV over ±%g uV (16 bits, resolution %.4f uV), annotated with \"seizure\" (onset, duration)\n", synthRange, 2*synthRange/65535)+
		"and \"artifact: blink\" / \"artifact: muscle\". The same flags give the same file. Progress goes\n"+
		"to stderr; a JSON summary (seizure onsets, kinds, foci and rhythms) to stdout.\n"+
		fmt.Sprintf("With -accelerometer, \"Accel X\", \"Accel Y\", \"Accel Z\" follow in g (±%g g), left out of the EEG by replay.\n", accelRange)+
		strings.TrimSuffix(kinds.String(), "\n"), stderr)
	out := fs.String("o", "", "EDF+ `FILE` to write (required)")
	duration := fs.Duration("duration", def.Duration, "length of the recording, a whole number of seconds")
	channels := fs.Int("channels", def.Channels, fmt.Sprintf("number of channels, 1 to %d (the first 23 follow the CHB-MIT bipolar montage)", acquire.MaxChannels))
	rate := fs.Int("rate", def.Rate, fmt.Sprintf("sampling rate in Hz, %d to %d", synth.MinRate, synth.MaxRate))
	seizures := fs.Int("seizures", def.Seizures, "number of seizures")
	seizureKinds := fs.String("seizure-kinds", string(synth.SeizureRhythmic), "comma-separated `LIST` of seizure kinds, given to the seizures in turn (kinds above)")
	artifactKinds := fs.String("artifact-kinds", "", "comma-separated `LIST` of artifact kinds that mimic seizures (kinds above; default none)")
	artifactRate := fs.Float64("artifacts-per-hour", synth.DefaultArtifactsPerHour, fmt.Sprintf("mean rate of each kind of -artifact-kinds, 0 to %d an hour", synth.MaxArtifactsPerHour))
	accel := fs.Bool("accelerometer", false, "add a three-axis accelerometer (channels Accel X, Y, Z in g)")
	seed := fs.Uint64("seed", def.Seed, "seed of the simulated patient")
	blinks := fs.Float64("blinks", def.BlinksPerMinute, "eye blinks per minute (0: none)")
	muscle := fs.Float64("muscle", def.MusclePerMinute, "muscle artifact bursts per minute (0: none)")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	switch {
	case *out == "":
		return errors.New("-o is required")
	case *duration <= 0 || *duration%time.Second != 0:
		return fmt.Errorf("-duration %v: must be a positive whole number of seconds", *duration)
	case *channels < 1:
		return fmt.Errorf("-channels %d: must be at least 1", *channels)
	case *artifactRate <= 0 && *artifactKinds != "":
		return fmt.Errorf("-artifacts-per-hour %v: must be positive with -artifact-kinds", *artifactRate)
	}
	sk, err := synth.ParseSeizureKinds(*seizureKinds)
	if err != nil {
		return fmt.Errorf("-seizure-kinds: %w", err)
	}
	ak, err := synth.ParseArtifactKinds(*artifactKinds)
	if err != nil {
		return fmt.Errorf("-artifact-kinds: %w", err)
	}
	cfg := def
	cfg.Duration, cfg.Channels, cfg.Rate, cfg.Seizures, cfg.Seed = *duration, *channels, *rate, *seizures, *seed
	cfg.BlinksPerMinute, cfg.MusclePerMinute = *blinks, *muscle
	cfg.SeizureKinds, cfg.ArtifactKinds, cfg.Accelerometer = sk, ak, *accel
	if len(ak) > 0 {
		cfg.ArtifactsPerHour = *artifactRate
	}
	p, err := synth.New(cfg)
	if err != nil {
		return err
	}
	defer p.Close()

	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	summary, err := writeSynth(f, p, stderr)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(*out)
		return fmt.Errorf("%s: %w", *out, err)
	}
	summary.Type, summary.File = "synth", *out
	return json.NewEncoder(stdout).Encode(summary)
}

// writeSynth writes p to w as EDF+ with one-second records and its
// intervals as annotations.
func writeSynth(w io.WriteSeeker, p *synth.Patient, stderr io.Writer) (synthSummary, error) {
	info, cfg := p.Info(), p.Config()
	specs := make([]edf.SignalSpec, len(info.Channels))
	limit := make([]float64, len(info.Channels)) // physical range of each channel
	for i, c := range info.Channels {
		specs[i] = edf.SignalSpec{
			Label: "EEG " + c.Label, Transducer: "simulated (ictal synth)", PhysicalDimension: "uV",
			PhysicalMin: -synthRange, PhysicalMax: synthRange, DigitalMin: -32768, DigitalMax: 32767,
			SamplesPerRecord: cfg.Rate,
		}
		limit[i] = synthRange
		if c.Unit == synth.AccelUnit {
			specs[i].Label, specs[i].Transducer, specs[i].PhysicalDimension = c.Label, "simulated accelerometer (ictal synth)", c.Unit
			specs[i].PhysicalMin, specs[i].PhysicalMax = -accelRange, accelRange
			limit[i] = accelRange
		}
	}
	wr, err := edf.NewWriter(w, edf.WriterConfig{
		Patient:        fmt.Sprintf("SYNTH-%d X X Simulated_patient", cfg.Seed),
		Recording:      "X X ictal_synth",
		Start:          info.Start,
		RecordDuration: time.Second,
		Signals:        specs,
	})
	if err != nil {
		return synthSummary{}, err
	}
	intervals := p.Intervals()
	for _, iv := range intervals {
		if err := wr.Annotate(iv.Start, iv.End-iv.Start, iv.Text); err != nil {
			return synthSummary{}, fmt.Errorf("annotation %q at %v: %w", iv.Text, iv.Start, err)
		}
	}
	frame := acquire.NewFrame(len(info.Channels))
	var clipped int64
	total := p.Frames()
	next := total / 10
	for {
		err := p.ReadFrame(frame)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return synthSummary{}, err
		}
		for i, v := range frame.Samples {
			if math.Abs(v) > limit[i] {
				clipped++
			}
		}
		if err := wr.WriteFrame(frame.Samples); err != nil {
			return synthSummary{}, fmt.Errorf("frame %d: %w", frame.Seq, err)
		}
		if int64(frame.Seq)+1 == next {
			fmt.Fprintf(stderr, "ictal synth: %3d%% %v of %v\n", 100*next/total, frame.Time.Round(time.Second), cfg.Duration)
			next += total / 10
		}
	}
	if err := wr.Close(); err != nil {
		return synthSummary{}, err
	}
	if clipped > 0 {
		fmt.Fprintf(stderr, "ictal synth: %d samples beyond ±%g uV (±%g g) were clipped\n", clipped, synthRange, accelRange)
	}
	s := synthSummary{
		Channels: cfg.Channels, Rate: cfg.Rate, Duration: cfg.Duration.Seconds(), Seed: cfg.Seed,
		Resolution: 2 * synthRange / 65535, Clipped: clipped, Annotations: len(intervals), Seizures: []synthSeizure{},
		Accelerometer: cfg.Accelerometer,
	}
	for _, z := range p.Seizures() {
		focus := make([]string, len(z.Focus))
		for i, c := range z.Focus {
			focus[i] = info.Channels[c].Label
		}
		s.Seizures = append(s.Seizures, synthSeizure{
			Kind: string(z.Kind), Onset: z.Start.Seconds(), Duration: (z.End - z.Start).Seconds(), Tonic: z.Tonic.Seconds(), Focus: focus,
			StartHz: math.Round(z.StartHz*100) / 100, EndHz: math.Round(z.EndHz*100) / 100, Reached: len(z.Reached),
		})
	}
	for _, iv := range intervals {
		for _, k := range cfg.ArtifactKinds {
			if iv.Text == k.Text() {
				s.Artifacts = append(s.Artifacts, synthArtifact{Kind: string(k), Onset: iv.Start.Seconds(), Duration: (iv.End - iv.Start).Seconds()})
			}
		}
	}
	fmt.Fprintf(stderr, "ictal synth: wrote %v of %d channels at %d Hz with %d seizures and %d annotations\n",
		cfg.Duration, len(info.Channels), cfg.Rate, len(s.Seizures), len(intervals))
	return s, nil
}
