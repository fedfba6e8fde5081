package recording

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/edf"
)

// Converted says what Convert or ConvertAt wrote.
type Converted struct {
	Format      Format  `json:"from"`
	BDF         bool    `json:"bdf"` // BDF+ (24-bit) rather than EDF+ (16-bit)
	Channels    int     `json:"channels"`
	Rate        float64 `json:"rate_hz"` // the output's rate
	Frames      int64   `json:"frames"`  // frames read from the source
	Filled      int64   `json:"filled"`  // frames lost by the source, written as repeats of the last frame and annotated
	Annotations int     `json:"annotations"`
	Record      float64 `json:"record_s"` // duration of a data record
	// SourceRate, Written and Resampler describe a resampling
	// (ConvertAt): the source's rate, the frames written at Rate (before
	// the last record's padding) and the filter used.
	SourceRate float64 `json:"source_rate_hz,omitempty"`
	Written    int64   `json:"frames_out,omitempty"`
	Resampler  string  `json:"resampler,omitempty"`
}

// Convert writes the recording at in (any format Open reads) to out as
// EDF+C, or as BDF+C when the source has 24-bit samples (BDF, OpenBCI),
// so that no resolution is lost. Each signal's physical range is the range
// its samples take (one pass over the input before writing), so the
// quantisation step is the smallest the format allows: the values written
// differ from the source's by at most half a step. Labelled intervals
// (EDF+ annotations, OpenBCI markers) become annotations. Frames the
// source lost (FlagGap) cannot be left out of a continuous file: they are
// written as repeats of the frame before the gap, and an annotation
// "gap: N frames lost" marks where. out is written to a temporary file
// beside it and renamed when complete.
func Convert(in, out string, opts *Opts) (Converted, error) {
	lo, hi, c, err := ranges(in, opts)
	if err != nil {
		return c, err
	}
	r, _, err := Open(in, opts)
	if err != nil {
		return c, err
	}
	defer r.Close()
	info := r.Info()
	cfg, err := writerConfig(info, c, lo, hi)
	if err != nil {
		return c, fmt.Errorf("recording: %s: %w", in, err)
	}
	c.Record = cfg.RecordDuration.Seconds()
	err = writeFile(out, func(w io.WriteSeeker) (err error) {
		c, err = write(w, cfg, r, c)
		return err
	})
	if err != nil {
		return c, fmt.Errorf("recording: converting %s: %w", in, err)
	}
	return c, nil
}

// writeFile writes out through fill, into a temporary file beside it
// renamed when complete.
func writeFile(out string, fill func(w io.WriteSeeker) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	if err := fill(tmp); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), out)
}

// ranges reads in once for each channel's range.
func ranges(in string, opts *Opts) (lo, hi []float64, c Converted, err error) {
	r, format, err := Open(in, opts)
	if err != nil {
		return nil, nil, c, err
	}
	defer r.Close()
	info := r.Info()
	n := len(info.Channels)
	c = Converted{Format: format, BDF: format.Bits() > 16, Channels: n, Rate: info.Rate}
	lo, hi = make([]float64, n), make([]float64, n)
	for i := range lo {
		lo[i], hi[i] = math.Inf(1), math.Inf(-1)
	}
	f := acquire.NewFrame(n)
	for {
		if err := r.ReadFrame(f); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, nil, c, err
		}
		for i, v := range f.Samples {
			lo[i], hi[i] = min(lo[i], v), max(hi[i], v)
		}
	}
	return lo, hi, c, nil
}

// writerConfig describes the output: a record of the shortest whole
// number of seconds (1, 2, 4, 5 or 10) holding a whole number of samples.
func writerConfig(info acquire.Info, c Converted, lo, hi []float64) (edf.WriterConfig, error) {
	cfg := edf.WriterConfig{BDF: c.BDF, Start: info.Start}
	spr := 0
	for _, d := range []int{1, 2, 4, 5, 10} {
		if n := info.Rate * float64(d); n == math.Trunc(n) {
			cfg.RecordDuration, spr = time.Duration(d)*time.Second, int(n)
			break
		}
	}
	if spr == 0 {
		return cfg, fmt.Errorf("rate %v Hz gives no whole number of samples in a record of 1 to 10 s", info.Rate)
	}
	cfg.Signals = signalSpecs(info, lo, hi, spr)
	return cfg, nil
}

// signalSpecs describes each channel of info as a signal of spr samples
// per record whose physical range holds lo[i]..hi[i].
func signalSpecs(info acquire.Info, lo, hi []float64, spr int) []edf.SignalSpec {
	specs := make([]edf.SignalSpec, len(info.Channels))
	for i, ch := range info.Channels {
		l, h := lo[i], hi[i]
		if math.IsInf(l, 0) { // no frames
			l, h = -1, 1
		}
		if h-l < 1e-3 { // a flat channel still needs a range
			l, h = l-1, h+1
		}
		unit := ch.Unit
		if unit == "" {
			unit = "uV"
		}
		specs[i] = edf.SignalSpec{
			Label: ch.Label, PhysicalDimension: unit, PhysicalMin: outward(l, false), PhysicalMax: outward(h, true), SamplesPerRecord: spr,
		}
	}
	return specs
}

// write copies r's frames and intervals to w.
func write(w io.WriteSeeker, cfg edf.WriterConfig, r Recording, c Converted) (Converted, error) {
	wr, err := edf.NewWriter(w, cfg)
	if err != nil {
		return c, err
	}
	if err := eachFrame(r, &c, c.Rate, wr.WriteFrame, wr.Annotate); err != nil {
		return c, err
	}
	for _, iv := range r.Intervals() {
		if err := wr.Annotate(iv.Start, iv.End-iv.Start, iv.Text); err != nil {
			return c, err
		}
		c.Annotations++
	}
	return c, wr.Close()
}

// eachFrame reads every frame of r, a source of rate Hz, and hands it to
// frame, each frame the source lost (a jump in Seq) first filled with a
// repeat of the frame before, the gap announced to gap (when not nil)
// with its time and a text for an annotation. It counts c's Frames and
// Filled.
func eachFrame(r Recording, c *Converted, rate float64, frame func([]float64) error, gap func(at, dur time.Duration, text string) error) error {
	f := acquire.NewFrame(c.Channels)
	prev := make([]float64, c.Channels)
	var next uint64
	for {
		err := r.ReadFrame(f)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if lost := f.Seq - next; c.Frames > 0 && f.Seq > next {
			if gap != nil {
				at := time.Duration(float64(next) / rate * float64(time.Second))
				if err := gap(at, 0, fmt.Sprintf("gap: %d frames lost", lost)); err != nil {
					return err
				}
			}
			for range lost {
				if err := frame(prev); err != nil {
					return err
				}
			}
			c.Filled += int64(lost)
		}
		if err := frame(f.Samples); err != nil {
			return err
		}
		copy(prev, f.Samples)
		next = f.Seq + 1
		c.Frames++
	}
}

// outward rounds v away from the range's inside to the most precise value
// the header's 8-character physical limit can hold, so that no sample
// falls outside the limits written.
func outward(v float64, up bool) float64 {
	for d := 6; d >= 0; d-- {
		p := math.Pow10(d)
		r := math.Floor(v * p)
		if up {
			r = math.Ceil(v * p)
		}
		r /= p
		if len(strconv.FormatFloat(r, 'f', -1, 64)) <= 8 {
			return r
		}
	}
	return v // beyond ±99999999: NewWriter reports it
}
