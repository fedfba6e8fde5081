package ads1299

import (
	"io"
	"math"
	"testing"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/openbci"
	"github.com/ictal/ictal/internal/datadir"
	"periph.io/x/conn/v3/gpio"
)

// openBCIScale is the OpenBCI GUI's µV per code for the Cyton's ADS1299 at
// gain 24: 4.5 V / 24 / (2^23 − 1). It differs from the datasheet's
// 2·VREF/gain/2^24 used by this driver by 1.2e-7 relative.
const openBCIScale = 4.5e6 / 24 / (1<<23 - 1)

// openBCISamples reads the EXG channels of the OpenBCI GUI recording in the
// shared data (a Cyton, whose front end is an ADS1299 at gain 24, 250 SPS),
// in µV as the GUI wrote them with two decimals: its first max rows (all
// if max <= 0), through the repository's reader of the GUI's format.
func openBCISamples(tb testing.TB, max int) [][8]float64 {
	tb.Helper()
	p := datadir.Path(tb, "data", "eeg", "openbci", "OpenBCI_GUI-v6-blinks-jawClench-alpha.txt")
	file, err := openbci.OpenFile(p, nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer file.Close()
	if n := len(file.Info().Channels); n != 8 {
		tb.Fatalf("%s: %d channels, want 8", p, n)
	}
	var rows [][8]float64
	f := acquire.NewFrame(8)
	for max <= 0 || len(rows) < max {
		err := file.ReadFrame(f)
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		var row [8]float64
		copy(row[:], f.Samples)
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		tb.Fatalf("%s: no samples", p)
	}
	return rows
}

// openBCIFrame rebuilds the ADS1299 frame a row of the recording came from,
// taking the code nearest to each value. The GUI computed its µV in single
// precision and wrote two decimals, so a code comes back exactly for values
// under about 40 mV, and to within one code above.
func openBCIFrame(row [8]float64) []byte {
	codes := make([]int32, 8)
	for i, v := range row {
		codes[i] = int32(math.Round(v / openBCIScale))
	}
	return frameBytes(0, 0, 0, codes...)
}

func TestReadFrameReproducesOpenBCIRecording(t *testing.T) {
	rows := openBCISamples(t, 0)
	ops := initIO(0x3E, defaultRegs)
	for _, r := range rows {
		ops = append(ops, frameIO(openBCIFrame(r)))
	}
	d, drdy, bus := newDev(t, testOpts(&events{}), ops)
	f := acquire.NewFrame(8)
	negative := 0
	for n, r := range rows {
		drdy.EdgesChan <- gpio.Low
		if err := d.ReadFrame(f); err != nil {
			t.Fatalf("sample %d: %v", n, err)
		}
		if f.Seq != uint64(n) || f.Flags != 0 {
			t.Fatalf("sample %d: Seq %d Flags %v", n, f.Seq, f.Flags)
		}
		for i, want := range r {
			// Half a code for the nearest code, plus the scales' difference.
			tol := openBCIScale/2 + 1.3e-7*math.Abs(want)
			if math.Abs(f.Samples[i]-want) > tol {
				t.Fatalf("sample %d channel %d: %.4f µV; the OpenBCI GUI wrote %.2f", n, i+1, f.Samples[i], want)
			}
			if want < 0 {
				negative++
			}
		}
	}
	closePlayback(t, bus)
	if len(rows) < 1000 || negative == 0 {
		t.Errorf("%d samples, %d negative: the recording was not read", len(rows), negative)
	}
}
