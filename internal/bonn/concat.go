package bonn

import (
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/edf"
)

// ConcatConfig describes a recording spliced from segments.
type ConcatConfig struct {
	Duration time.Duration // at least this long (default 60 min)
	// SeizureRate is the probability that a slot holds an ictal segment
	// (default 0.05: about 7 seizures an hour); an ictal segment is always
	// followed by at least MinGapSegments others, so seizures stay more
	// than 90 s apart and are scored as separate events.
	SeizureRate float64
	Seed        uint64
	Start       time.Time // recording start written in the header
}

// MinGapSegments is the number of non-ictal segments after each ictal one
// (4 × 23.6 s = 94.4 s > SzCORE's 90 s merge gap).
const MinGapSegments = 4

// Concat writes an EDF+ recording (one channel "EEG", µV, 173.61 Hz in
// 100 s records) made of whole segments drawn from segs at random (each at
// most once while any is left), with an annotation "seizure" over every
// ictal one, and returns the seizure intervals. What splicing does not
// show: every splice is a discontinuity the features see; a seizure is a
// 23.6 s piece of an ictal recording without onset or pre-ictal evolution;
// neighbouring segments come from different patients and electrodes
// (surface and intracranial); there is one channel.
func Concat(w io.WriteSeeker, segs []Segment, cfg ConcatConfig) ([]acquire.Interval, error) {
	if cfg.Duration == 0 {
		cfg.Duration = time.Hour
	}
	if cfg.SeizureRate == 0 {
		cfg.SeizureRate = 0.05
	}
	if !(cfg.SeizureRate >= 0 && cfg.SeizureRate <= 1) {
		return nil, fmt.Errorf("bonn: seizure rate %v outside [0, 1]", cfg.SeizureRate)
	}
	if cfg.Duration < 0 {
		return nil, fmt.Errorf("bonn: duration %v: want > 0 (0: an hour)", cfg.Duration)
	}
	var pos, neg []Segment
	for _, s := range segs {
		if s.Ictal() {
			pos = append(pos, s)
		} else {
			neg = append(neg, s)
		}
	}
	if len(neg) == 0 || (len(pos) == 0 && cfg.SeizureRate > 0) {
		return nil, fmt.Errorf("bonn: %d ictal and %d other segments: need both", len(pos), len(neg))
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x636f6e636174))
	draw := func(pool []Segment, left *[]int) Segment {
		if len(*left) == 0 {
			*left = rng.Perm(len(pool))
		}
		i := (*left)[0]
		*left = (*left)[1:]
		return pool[i]
	}
	var leftPos, leftNeg []int
	wr, err := edf.NewWriter(w, edf.WriterConfig{Start: cfg.Start, RecordDuration: 100 * time.Second, Recording: "Startdate X X X Bonn-EEG-spliced",
		Signals: []edf.SignalSpec{{Label: "EEG", PhysicalDimension: "uV", PhysicalMin: -2048, PhysicalMax: 2048, SamplesPerRecord: 17361}}})
	if err != nil {
		return nil, err
	}
	rate := Rate
	segDur := time.Duration(float64(SegmentSamples) / rate * float64(time.Second))
	var ivs []acquire.Interval
	var n int64
	gap := MinGapSegments // start with non-ictal context
	frame := []float64{0}
	for time.Duration(float64(n)/Rate*float64(time.Second)) < cfg.Duration {
		ictal := gap >= MinGapSegments && rng.Float64() < cfg.SeizureRate
		var s Segment
		if ictal {
			s, gap = draw(pos, &leftPos), 0
			start := time.Duration(float64(n) / Rate * float64(time.Second))
			ivs = append(ivs, acquire.Interval{Start: start, End: start + segDur, Text: "seizure " + s.Name, Seizure: true})
			if err := wr.Annotate(start, segDur, "seizure "+s.Name); err != nil {
				return nil, err
			}
		} else {
			s = draw(neg, &leftNeg)
			gap++
		}
		for _, v := range s.X {
			frame[0] = v
			if err := wr.WriteFrame(frame); err != nil {
				return nil, err
			}
			n++
		}
	}
	return ivs, wr.Close()
}
