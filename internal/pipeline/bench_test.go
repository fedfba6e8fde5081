package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/edf"
	"github.com/ictal/ictal/acquire/synth"
	"github.com/ictal/ictal/features"
	"github.com/ictal/ictal/features/artifact"
)

// writeRecording writes a simulated recording at the simulator's default
// rate (256 Hz) to an EDF+ file.
func writeRecording(tb testing.TB, path string, channels int, d time.Duration, seizures int, seed uint64) {
	tb.Helper()
	writeRecordingAt(tb, path, channels, synth.DefaultRate, d, seizures, seed)
}

// writeRecordingAt writes a simulated recording at rate Hz to an EDF+ file.
func writeRecordingAt(tb testing.TB, path string, channels, rate int, d time.Duration, seizures int, seed uint64) {
	tb.Helper()
	cfg := synth.DefaultConfig()
	cfg.Channels, cfg.Rate, cfg.Duration, cfg.Seizures, cfg.Seed = channels, rate, d, seizures, seed
	pat, err := synth.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	info := pat.Info()
	specs := make([]edf.SignalSpec, len(info.Channels))
	for i, ch := range info.Channels {
		specs[i] = edf.SignalSpec{Label: "EEG " + ch.Label, PhysicalDimension: "uV", PhysicalMin: -3200, PhysicalMax: 3200, SamplesPerRecord: int(info.Rate)}
	}
	w, err := edf.NewWriter(f, edf.WriterConfig{Start: info.Start, RecordDuration: time.Second, Signals: specs})
	if err != nil {
		tb.Fatal(err)
	}
	fr := acquire.NewFrame(len(specs))
	for {
		if err := pat.ReadFrame(fr); err != nil {
			break
		}
		if err := w.WriteFrame(fr.Samples); err != nil {
			tb.Fatal(err)
		}
	}
	for _, iv := range pat.Intervals() {
		if iv.Seizure {
			w.Annotate(iv.Start, iv.End-iv.Start, "seizure")
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	f.Close()
}

// BenchmarkReplayHour runs the whole pipeline — EDF replay, quality,
// features, UOB/NB scoring, detection and prequential learning — over a
// 23-channel, 256 Hz, one-hour simulated recording, as fast as possible.
// It reports the real-time factor and the allocations per frame of the run
// (set-up excluded), with the signal conditioning off (as before it
// existed) and on (the default), so that one run gives both.
func BenchmarkReplayHour(b *testing.B) {
	path := filepath.Join(b.TempDir(), "hour.edf")
	writeRecording(b, path, 23, time.Hour, 4, 7)
	// Old (the signal path before conditioning and artifact rejection)
	// and new (the defaults) in one run.
	for _, v := range []struct {
		name              string
		condOff, artifOff bool
	}{
		{"conditioning=off,artifacts=off", true, true},
		{"conditioning=on,artifacts=off", false, true},
		{"conditioning=on,artifacts=on", false, false},
	} {
		fcfg := defaultFeatures
		fcfg.Conditioning.Off = v.condOff
		b.Run(v.name, func(b *testing.B) { benchmarkReplay(b, path, time.Hour, fcfg, artifact.Config{Off: v.artifOff}) })
	}
	// The day-one path: one model grading every channel against its
	// baseline, learning each channel.
	b.Run("conditioning=on,artifacts=on,scoring=channel", func(b *testing.B) {
		benchmarkReplayScoring(b, path, time.Hour, defaultFeatures, artifact.Config{}, Scoring{PerChannel: true, Population: unitPopulation()})
	})
	// The same with each feature's evidence censored, as the shipped
	// day-one model's scoring is (1 nat).
	b.Run("conditioning=on,artifacts=on,scoring=channel,censor=1", func(b *testing.B) {
		benchmarkReplayScoring(b, path, time.Hour, defaultFeatures, artifact.Config{}, Scoring{PerChannel: true, Population: unitPopulation(), Censor: 1})
	})
}

// BenchmarkReplayWide is BenchmarkReplayHour's default signal path
// (conditioning and artifact gating on) for a high-density montage, 64
// channels at 512 Hz, over 10 minutes: the cost should grow with channels
// × rate and no faster.
func BenchmarkReplayWide(b *testing.B) {
	const d = 10 * time.Minute
	path := filepath.Join(b.TempDir(), "wide.edf")
	writeRecordingAt(b, path, 64, 512, d, 1, 7)
	benchmarkReplay(b, path, d, defaultFeatures, artifact.Config{})
}

func benchmarkReplay(b *testing.B, path string, length time.Duration, fcfg features.Config, acfg artifact.Config) {
	benchmarkReplayScoring(b, path, length, fcfg, acfg, Scoring{})
}

func benchmarkReplayScoring(b *testing.B, path string, length time.Duration, fcfg features.Config, acfg artifact.Config, sc Scoring) {
	var rtf, rtfCPU, allocsPerFrame float64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		src, err := edf.OpenReplay(path, edf.ReplayConfig{})
		if err != nil {
			b.Fatal(err)
		}
		model := newModel(b, src, fcfg, "UOB")
		if sc.PerChannel {
			model = channelModel(b)
		}
		p, err := New(src, fcfg, model, Config{Learning: Learning{Mode: LearnAnnotations}, Artifact: acfg, Scoring: sc}, nil, Hooks{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		cpu0 := cpuTime(b)
		b.StartTimer()
		start := time.Now()
		if err := p.Run(context.Background()); err != nil {
			b.Fatal(err)
		}
		el := time.Since(start)
		b.StopTimer()
		cpu := cpuTime(b) - cpu0
		runtime.ReadMemStats(&m1)
		src.Close()
		st := p.Stats()
		rtf = float64(length) / float64(el)
		rtfCPU = float64(length) / float64(cpu)
		allocsPerFrame = float64(m1.Mallocs-m0.Mallocs) / float64(st.Frames)
		b.StartTimer()
	}
	b.ReportMetric(rtf, "x-realtime")
	// The same per second of CPU time the process used (user + system,
	// every thread): on a machine shared with other work, waiting for a
	// core stretches the wall clock but not this.
	b.ReportMetric(rtfCPU, "x-realtime-cpu")
	b.ReportMetric(allocsPerFrame, "allocs/frame")
}

// cpuTime returns the CPU time (user + system) the process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
