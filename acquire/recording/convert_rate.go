package recording

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/edf"
	"github.com/ictal/ictal/acquire/resample"
)

// The rates ConvertAt writes, in Hz.
const (
	MinRate = 1
	MaxRate = 65536
)

// maxRecord bounds the data record ConvertAt lays out for a rate that is
// not a whole number of hertz.
const maxRecord = 100 // seconds

// ConvertAt is Convert with every signal resampled to rate
// (acquire/resample: a Kaiser-windowed-sinc filter with an anti-alias
// low-pass at 0.45·min(source rate, rate) when downsampling; an event at
// t s stays at t s). A data record lasts the denominator of rate in
// lowest terms, in seconds, so that it holds a whole number of samples:
// 1 s for 256 Hz, 2 s for 100.5 Hz, 100 s for 173.61 Hz; a rate needing
// more than 100 s is refused. Each signal's physical range is the range
// its resampled samples take (one pass to find it, a second to write), so
// that nothing is clipped. Annotations keep their times; frames the
// source lost are filled with repeats before resampling, as Convert does.
func ConvertAt(in, out string, rate resample.Rate, opts *Opts) (Converted, error) {
	record, spr, err := RecordFor(rate)
	if err != nil {
		return Converted{}, fmt.Errorf("recording: rate %v Hz: %w", rate, err)
	}
	r, format, err := Open(in, opts)
	if err != nil {
		return Converted{}, err
	}
	info := r.Info()
	n := len(info.Channels)
	c := Converted{Format: format, BDF: format.Bits() > 16, Channels: n, Rate: rate.Hz(), Record: record.Seconds(), SourceRate: info.Rate}
	rs, err := sourceResampler(info, rate)
	if err != nil {
		r.Close()
		return c, fmt.Errorf("recording: %s: %w", in, err)
	}
	c.Resampler = rs.String()
	lo, hi := make([]float64, n), make([]float64, n)
	for i := range lo {
		lo[i], hi[i] = math.Inf(1), math.Inf(-1)
	}
	_, err = resampleFrames(r, rs, c, func(f []float64) error {
		for i, v := range f {
			lo[i], hi[i] = min(lo[i], v), max(hi[i], v)
		}
		return nil
	}, nil)
	r.Close()
	if err != nil {
		return c, fmt.Errorf("recording: %s: %w", in, err)
	}

	if r, _, err = Open(in, opts); err != nil {
		return c, err
	}
	defer r.Close()
	rs.Reset()
	cfg := edf.WriterConfig{BDF: c.BDF, Start: info.Start, RecordDuration: record, Signals: signalSpecs(info, lo, hi, spr)}
	err = writeFile(out, func(w io.WriteSeeker) error {
		wr, err := edf.NewWriter(w, cfg)
		if err != nil {
			return err
		}
		if c, err = resampleFrames(r, rs, c, wr.WriteFrame, wr.Annotate); err != nil {
			return err
		}
		for _, iv := range r.Intervals() {
			if err := wr.Annotate(iv.Start, iv.End-iv.Start, iv.Text); err != nil {
				return err
			}
			c.Annotations++
		}
		return wr.Close()
	})
	if err != nil {
		return c, fmt.Errorf("recording: converting %s: %w", in, err)
	}
	return c, nil
}

// RecordFor returns the data record ConvertAt writes at rate: as many
// seconds as rate's denominator in lowest terms, holding its numerator in
// samples. It refuses, saying why, a rate outside MinRate to MaxRate and
// one whose record would last more than 100 s.
func RecordFor(rate resample.Rate) (time.Duration, int, error) {
	if rate.Num <= 0 || rate.Den <= 0 || rate.Num < MinRate*rate.Den || rate.Num > MaxRate*rate.Den {
		return 0, 0, fmt.Errorf("want %d to %d Hz", MinRate, MaxRate)
	}
	if rate.Den > maxRecord {
		return 0, 0, fmt.Errorf("a data record holding a whole number of samples would last %d s, more than %d s: round the rate (e.g. to two decimals)", rate.Den, maxRecord)
	}
	return time.Duration(rate.Den) * time.Second, int(rate.Num), nil
}

// sourceResampler returns a Resampler from info's rate to rate.
func sourceResampler(info acquire.Info, rate resample.Rate) (*resample.Resampler, error) {
	from, err := resample.RateOf(info.Rate)
	if err != nil {
		return nil, fmt.Errorf("source %w", err)
	}
	return resample.New(from, rate, len(info.Channels))
}

// resampleFrames reads every frame of r, fills the frames the source lost
// with repeats of the frame before (calling gap, when not nil, with the
// time and a text for an annotation), resamples them with rs and calls
// emit with each output frame. It returns c with Frames, Filled and
// Written counted.
func resampleFrames(r Recording, rs *resample.Resampler, c Converted, emit func([]float64) error, gap func(at, dur time.Duration, text string) error) (Converted, error) {
	c.Frames, c.Filled, c.Written = 0, 0, 0
	y := make([]float64, c.Channels)
	pop := func() error {
		for rs.Pop(y) {
			if err := emit(y); err != nil {
				return err
			}
			c.Written++
		}
		return nil
	}
	push := func(x []float64) error {
		rs.Push(x)
		return pop()
	}
	if err := eachFrame(r, &c, c.SourceRate, push, gap); err != nil {
		return c, err
	}
	rs.End()
	return c, pop()
}
