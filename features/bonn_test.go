package features

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ictal/ictal/internal/datadir"
)

// bonnRate is the sampling rate of the Bonn recordings, in Hz.
const bonnRate = 173.61

// readBonn reads one Bonn segment (one integer per line, CRLF) from the
// shared data folder.
func readBonn(t testing.TB, set string, seg int) []float64 {
	t.Helper()
	ext := "txt"
	if set == "N" {
		ext = "TXT"
	}
	name := fmt.Sprintf("%s%03d.%s", set, seg, ext)
	f, err := os.Open(datadir.Path(t, "data", "eeg", "bonn", set, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var x []float64
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		v, err := strconv.Atoi(strings.TrimSpace(sc.Text()))
		if err != nil {
			t.Fatalf("%s line %d: %v", name, line, err)
		}
		x = append(x, float64(v))
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return x
}

// bonnVectors returns the feature vectors of every window of a segment.
func bonnVectors(t *testing.T, e *Extractor, x []float64) [][]float64 {
	t.Helper()
	e.Reset()
	var out [][]float64
	for _, v := range x {
		if e.Push([]float64{v}) {
			out = append(out, e.Vector(make([]float64, e.Dim())))
		}
	}
	return out
}

// TestBonnIctalSegmentsStandOut runs the extractor over real EEG, 20
// segments each of the Bonn sets Z (healthy, eyes open) and S (seizures),
// at their 173.61 Hz rate. Every feature must be finite with relative
// powers summing to 1, and the ictal segments must show what seizure
// detectors rely on: a higher line length and Teager energy than healthy
// EEG in nearly every window. The samples are ADC counts, used as µV.
func TestBonnIctalSegmentsStandOut(t *testing.T) {
	e, err := New(Config{Channels: 1, Rate: bonnRate})
	if err != nil {
		t.Fatal(err)
	}
	names := e.Names()
	collect := func(set string) (ll, tk []float64) {
		for seg := 1; seg <= 20; seg++ {
			vs := bonnVectors(t, e, readBonn(t, set, seg))
			if len(vs) != 22 {
				t.Fatalf("%s%03d: %d windows, want 22 (4097 samples: 347 + 21 steps of 173.61)", set, seg, len(vs))
			}
			for _, x := range vs {
				checkFinite(t, names, x)
				var rel float64
				for f := DeltaRel; f <= GammaRel; f++ {
					rel += x[f]
				}
				if math.Abs(rel-1) > 1e-9 {
					t.Fatalf("%s%03d: relative powers sum to %v", set, seg, rel)
				}
				ll = append(ll, x[LineLength])
				tk = append(tk, x[TeagerEnergy])
			}
		}
		return ll, tk
	}
	llZ, tkZ := collect("Z")
	llS, tkS := collect("S")
	// 9 in 10 ictal windows above 9 in 10 healthy ones.
	for _, c := range []struct {
		f                Feature
		healthy, seizure []float64
	}{
		{LineLength, llZ, llS},
		{TeagerEnergy, tkZ, tkS},
	} {
		if hi, lo := quantile(c.healthy, 0.9), quantile(c.seizure, 0.1); lo <= hi {
			t.Errorf("%v: 10th percentile of set S %.3f is not above the 90th of set Z %.3f", c.f, lo, hi)
		}
	}
}

// quantile returns the q-quantile of x (the element at rank q·(len−1)).
func quantile(x []float64, q float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	return s[int(q*float64(len(s)-1))]
}
