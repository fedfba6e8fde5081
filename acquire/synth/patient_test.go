package synth

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"math"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
)

// everything exercises every part of the model within a minute: a seizure
// with its post-ictal period, blinks and muscle bursts.
var everything = Config{
	Channels: 23, Duration: time.Minute, Onsets: []time.Duration{5 * time.Second},
	SeizureMin: 20 * time.Second, SeizureMax: 20 * time.Second,
	BlinksPerMinute: 30, MusclePerMinute: 6, Seed: 42,
}

// digest hashes the bits of every sample of a recording.
func digest(t *testing.T, cfg Config) string {
	t.Helper()
	_, x := record(t, cfg)
	h := sha256.New()
	var b [8]byte
	for i := range x[0] {
		for c := range x {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(x[c][i]))
			h.Write(b[:])
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

func TestSameSeedGivesIdenticalSamples(t *testing.T) {
	a, b := digest(t, everything), digest(t, everything)
	if a != b {
		t.Fatalf("two patients with seed 42 differ: %s, %s", a, b)
	}
}

func TestDifferentSeedsDiffer(t *testing.T) {
	other := everything
	other.Seed = 43
	_, x := record(t, everything)
	_, y := record(t, other)
	same := 0
	for c := range x {
		for i := range x[c] {
			if x[c][i] == y[c][i] {
				same++
			}
		}
	}
	if same > 0 {
		t.Errorf("seeds 42 and 43 share %d of %d samples", same, len(x)*len(x[0]))
	}
}

// goldenDigest is the SHA-256 of the samples of everything. It was
// computed on linux/amd64; every architecture must reproduce it bit for
// bit (the generator avoids fused multiply-adds and platform math). It
// changes only when the signal model does, on purpose. On an amd64 machine
// with FMA, `GOAMD64=v3 go test -run Golden` checks that no product is
// fused: the compiler then fuses every unguarded x*y+z.
const goldenDigest = "553d09fcadef58ebea7ad1146ec6b2c8aab31eab3f1b0fdd5d18dd3fb4983f4d"

func TestSamplesMatchGoldenDigest(t *testing.T) {
	if got := digest(t, everything); got != goldenDigest {
		t.Errorf("digest of the reference recording is %s, want %s", got, goldenDigest)
	}
}

func TestFramesAreStampedFromTheSampleIndex(t *testing.T) {
	tests := []struct {
		rate int
		seq  uint64
		want time.Duration
	}{
		{256, 0, 0},
		{256, 1, 3906250 * time.Nanosecond},
		{256, 257, time.Second + 3906250*time.Nanosecond},
		{200, 3, 15 * time.Millisecond},
		{1000, 999, 999 * time.Millisecond},
		{3000, 1, 333333 * time.Nanosecond}, // truncated to the nanosecond
		{3000, 3001, time.Second + 333333*time.Nanosecond},
	}
	for _, tt := range tests {
		p, err := New(Config{Channels: 2, Rate: tt.rate, Duration: 2 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		f := acquire.NewFrame(2)
		for i := uint64(0); i <= tt.seq; i++ {
			f.Flags = acquire.FlagGap // ReadFrame must clear it
			if err := p.ReadFrame(f); err != nil {
				t.Fatal(err)
			}
		}
		if f.Seq != tt.seq || f.Time != tt.want || f.Flags != 0 {
			t.Errorf("rate %d frame %d: Seq %d Time %v Flags %v, want Time %v and no flags", tt.rate, tt.seq, f.Seq, f.Time, f.Flags, tt.want)
		}
	}
}

func TestRecordingEndsWithEOF(t *testing.T) {
	p, err := New(Config{Channels: 3, Rate: 128, Duration: 2*time.Second + 10*time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if p.Frames() != 257 {
		t.Fatalf("Frames() = %d, want 257", p.Frames())
	}
	f := acquire.NewFrame(3)
	for i := range 257 {
		if err := p.ReadFrame(f); err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
	}
	for range 2 {
		if err := p.ReadFrame(f); err != io.EOF {
			t.Fatalf("after the last frame: %v, want io.EOF", err)
		}
	}
}

func TestReadFrameRejectsMisuse(t *testing.T) {
	p, err := New(Config{Channels: 4, Duration: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.ReadFrame(acquire.NewFrame(3)); !errors.Is(err, acquire.ErrFrameSize) {
		t.Errorf("3-sample frame for 4 channels: %v, want ErrFrameSize", err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.ReadFrame(acquire.NewFrame(4)); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v, want ErrClosed", err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestInfoDescribesChannels(t *testing.T) {
	p, err := New(Config{Channels: 25})
	if err != nil {
		t.Fatal(err)
	}
	info := p.Info()
	if info.Rate != 256 || !info.Start.Equal(DefaultStart) || len(info.Channels) != 25 {
		t.Fatalf("Info() = rate %v start %v, %d channels", info.Rate, info.Start, len(info.Channels))
	}
	want := map[int]string{0: "Fp1-F7", 1: "F7-T7", 17: "Cz-Pz", 22: "Cz-C4", 23: "E24", 24: "E25"}
	for i, l := range want {
		if c := info.Channels[i]; c.Label != l || c.Unit != "uV" || c.Rate != 256 {
			t.Errorf("channel %d = %+v, want label %q in uV at 256 Hz", i, c, l)
		}
	}
	info.Channels[0].Label = "changed"
	if p.Info().Channels[0].Label != "Fp1-F7" {
		t.Error("Info shares its channel slice with the caller")
	}
	start := time.Date(2030, 5, 6, 7, 8, 9, 0, time.UTC)
	if q, _ := New(Config{Start: start, Seed: 99}); !q.Info().Start.Equal(start) {
		t.Errorf("configured start ignored: %v", q.Info().Start)
	}
}

func TestReadFrameAllocatesNothing(t *testing.T) {
	// Read through the whole recording: background, seizure onset and
	// spread, post-ictal period, blinks and muscle; then every kind of
	// seizure and artifact and the accelerometer.
	for _, cfg := range []Config{everything, allKinds} {
		p, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		f := acquire.NewFrame(len(p.Info().Channels))
		allocs := testing.AllocsPerRun(int(p.Frames())-1, func() {
			if err := p.ReadFrame(f); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%d channels, seed %d: ReadFrame allocates %.2f times per frame", len(f.Samples), cfg.Seed, allocs)
		}
	}
}

func BenchmarkReadFrame(b *testing.B) {
	cfg := DefaultConfig()
	cfg.Channels = 23
	cfg.Duration = 24 * time.Hour
	cfg.Seizures = 100
	p, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	f := acquire.NewFrame(23)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := p.ReadFrame(f); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/frame")
}

// BenchmarkHour generates one hour of 23-channel EEG at 256 Hz (921600
// frames) per operation, with the default seizures and artifacts.
func BenchmarkHour(b *testing.B) {
	cfg := DefaultConfig()
	cfg.Channels = 23
	cfg.Duration = time.Hour
	f := acquire.NewFrame(23)
	b.ReportAllocs()
	for b.Loop() {
		p, err := New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		for {
			if err := p.ReadFrame(f); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
}
