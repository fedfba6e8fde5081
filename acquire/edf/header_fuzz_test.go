package edf

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"
)

// FuzzHeader feeds arbitrary files to the reader: it must never panic, and
// whatever it accepts must be self-consistent and readable to the end.
func FuzzHeader(f *testing.F) {
	for _, rel := range []string{
		"edfreader-r/edfPlusD.edf", "edfize/simulated-01.edf", "edfize/invalid-date.edf",
		"mne-testing-data/SC4001EC-Hypnogram.edf", "mne-testing-data/test_bdf_stim_channel.bdf",
		"mne-python/test_edf_stim_channel.edf", "pyedflib/test_subsecond.edf", "edfio/SC4001EC-Hypnogram.bdf",
	} {
		b, err := os.ReadFile(conformance(f, rel))
		if err != nil {
			f.Fatal(err)
		}
		r, err := NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			f.Fatal(err)
		}
		// The header and the first record keep seeds small.
		n := r.Header().HeaderBytes + r.recBytes
		f.Add(b[:min(n, len(b))])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			if !errors.Is(err, ErrHeader) {
				t.Fatalf("error %v does not wrap ErrHeader", err)
			}
			return
		}
		h := r.Header()
		if h.HeaderBytes != 256*(len(h.Signals)+1) || h.Records < 0 || h.RecordDuration < 0 {
			t.Fatalf("inconsistent header: %d header bytes for %d signals, %d records, duration %v", h.HeaderBytes, len(h.Signals), h.Records, h.RecordDuration)
		}
		if int64(h.HeaderBytes)+h.Records*int64(h.RecordBytes()) > int64(len(b)) {
			t.Fatalf("%d records of %d bytes do not fit %d bytes", h.Records, h.RecordBytes(), len(b))
		}
		for i := range h.Signals {
			s := &h.Signals[i]
			if !s.IsAnnotation() && (s.DigitalMin >= s.DigitalMax || s.PhysicalMin == s.PhysicalMax) {
				t.Fatalf("signal %d accepted with a degenerate range: %+v", i, s)
			}
		}
		// What a header declares must not make the reader allocate more
		// than the file holds: a float64 and a byte per 16-bit sample.
		rec := r.NewRecord()
		room := len(rec.raw)
		for _, s := range rec.Samples {
			room += 8 * len(s)
		}
		if room > 5*len(b) {
			t.Fatalf("a record of %d bytes for a %d-byte file", room, len(b))
		}
		for {
			err := r.ReadRecord(rec)
			if err == io.EOF || errors.Is(err, ErrTruncated) || errors.Is(err, ErrTAL) {
				break
			}
			if err != nil {
				t.Fatalf("ReadRecord: %v", err)
			}
		}
		r.Annotations()
		r.Onsets()
		r.Start()
	})
}
