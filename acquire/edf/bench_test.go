package edf

import (
	"bytes"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
)

// eegConfig is a 23-channel, 256 Hz EEG layout like CHB-MIT's.
func eegConfig(bdf bool) WriterConfig {
	cfg := WriterConfig{BDF: bdf, Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), RecordDuration: time.Second}
	for i := 0; i < 23; i++ {
		cfg.Signals = append(cfg.Signals, SignalSpec{Label: "EEG " + itoa(i), PhysicalDimension: "uV", PhysicalMin: -3000, PhysicalMax: 3000, SamplesPerRecord: 256})
	}
	return cfg
}

// writeEEG writes seconds records of cfg's layout to w.
func writeEEG(tb testing.TB, w io.WriteSeeker, cfg WriterConfig, seconds int) {
	tb.Helper()
	wr, err := NewWriter(w, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	frame := make([]float64, len(cfg.Signals))
	for k := 0; k < seconds*256; k++ {
		for c := range frame {
			frame[c] = 100 * math.Sin(float64(k*(c+1))/50)
		}
		if err := wr.WriteFrame(frame); err != nil {
			tb.Fatal(err)
		}
	}
	if err := wr.Close(); err != nil {
		tb.Fatal(err)
	}
}

func benchmarkDecode(b *testing.B, bdf bool) {
	var buf seekBuffer
	writeEEG(b, &buf, eegConfig(bdf), 4)
	r, err := NewReader(bytes.NewReader(buf.b), int64(len(buf.b)))
	if err != nil {
		b.Fatal(err)
	}
	rec := r.NewRecord()
	b.SetBytes(int64(r.Header().RecordBytes()))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := r.ReadRecordAt(int64(i&3), rec); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/256, "ns/frame")
}

// BenchmarkDecodeRecord reads and converts one EDF+ record of 23 signals ×
// 256 samples (one second of EEG) from memory.
func BenchmarkDecodeRecord(b *testing.B) { benchmarkDecode(b, false) }

// BenchmarkDecodeRecordBDF is BenchmarkDecodeRecord for 24-bit BDF+.
func BenchmarkDecodeRecordBDF(b *testing.B) { benchmarkDecode(b, true) }

// BenchmarkReplay replays a one-hour, 23-channel, 256 Hz EDF+ file from disk
// as fast as possible; one op is one frame. x-realtime is recorded seconds
// served per second of wall time.
func BenchmarkReplay(b *testing.B) {
	path := filepath.Join(b.TempDir(), "hour.edf")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	writeEEG(b, f, eegConfig(false), 3600)
	f.Close()
	open := func() *Replay {
		p, err := OpenReplay(path, ReplayConfig{})
		if err != nil {
			b.Fatal(err)
		}
		return p
	}
	p := open()
	frame := acquire.NewFrame(23)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		err := p.ReadFrame(frame)
		if err == io.EOF {
			b.StopTimer()
			p.Close()
			p = open()
			b.StartTimer()
			err = p.ReadFrame(frame)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	p.Close()
	b.ReportMetric(float64(b.N)/256/b.Elapsed().Seconds(), "x-realtime")
}
