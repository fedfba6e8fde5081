package record

import (
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
)

// BenchmarkFrame records frames of 8 channels at 250 Hz (EDF, header
// count after every record); one op is one frame.
func BenchmarkFrame(b *testing.B) {
	r, err := New(Config{Dir: b.TempDir(), Site: "s", Bed: "b", Rotate: 24 * time.Hour}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	r.Begin(testInfo(8, 250), time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC))
	f := acquire.NewFrame(8)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		f.Time = time.Duration(i) * 4 * time.Millisecond
		f.Samples[i%8] = float64(i % 1000)
		r.Frame(f)
	}
}
