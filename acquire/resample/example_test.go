package resample_test

import (
	"fmt"
	"math"

	"github.com/ictal/ictal/acquire/resample"
)

// A 10-Hz sine recorded at 256 Hz for 2 s, resampled to 100 Hz: 200
// output frames, output n the sine at n/100 s.
func ExampleResampler() {
	from, _ := resample.ParseRate("256")
	to, _ := resample.ParseRate("100")
	rs, err := resample.New(from, to, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rs)
	var out []float64
	y := make([]float64, 1)
	for k := range 512 {
		rs.Push([]float64{math.Sin(2 * math.Pi * 10 * float64(k) / 256)})
		for rs.Pop(y) {
			out = append(out, y[0])
		}
	}
	rs.End()
	for rs.Pop(y) {
		out = append(out, y[0])
	}
	fmt.Println(len(out), "frames")
	for _, n := range []int{98, 99, 100, 101} {
		fmt.Printf("t=%.2f s: %.4f (sine %.4f)\n", float64(n)/100, out[n], math.Sin(2*math.Pi*10*float64(n)/100))
	}
	// Output:
	// 256 Hz → 100 Hz, polyphase 25/64, 228 taps
	// 200 frames
	// t=0.98 s: -0.9511 (sine -0.9511)
	// t=0.99 s: -0.5878 (sine -0.5878)
	// t=1.00 s: -0.0000 (sine -0.0000)
	// t=1.01 s: 0.5878 (sine 0.5878)
}

// Rates are exact fractions: a decimal, a fraction, or a float64 from a
// file's header.
func ExampleParseRate() {
	for _, s := range []string{"256", "173.61", "20485/118", "0.5e3"} {
		r, err := resample.ParseRate(s)
		fmt.Println(r.Num, r.Den, r, err)
	}
	r, _ := resample.RateOf(4097 / 23.6) // 4097 samples per 23.6-s record
	fmt.Println(r.Num, r.Den, r)
	// Output:
	// 256 1 256 <nil>
	// 17361 100 173.61 <nil>
	// 20485 118 20485/118 <nil>
	// 500 1 500 <nil>
	// 20485 118 20485/118
}
