package features_test

import (
	"fmt"
	"math"

	"github.com/ictal/ictal/features"
)

// Example feeds 4 s of a two-channel recording at 256 Hz, a 10 Hz alpha
// rhythm on O1 throughout and on Fz a 3 Hz delta wave that turns into
// alpha after 2 s, and prints a few features of each 2-s window as it
// completes, every second.
func Example() {
	x, err := features.New(features.Config{
		Channels: 2,
		Labels:   []string{"O1", "Fz"},
		Rate:     256,
		Features: []features.Feature{features.AlphaRel, features.DeltaRel, features.SpectralEdge},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(x.Names())
	frame := make([]float64, 2)
	vec := make([]float64, x.Dim()) // reused for every window
	for k := 0; k < 4*256; k++ {
		t := float64(k) / 256
		frame[0] = 30 * math.Sin(2*math.Pi*10*t)
		frame[1] = 60 * math.Sin(2*math.Pi*3*t)
		if t >= 2 {
			frame[1] = 60 * math.Sin(2*math.Pi*10*t)
		}
		if x.Push(frame) {
			x.Vector(vec)
			fmt.Printf("after %.1f s: %.2f\n", float64(k+1)/256, vec)
		}
	}
	// Output:
	// [O1/alpha_rel O1/delta_rel O1/spectral_edge Fz/alpha_rel Fz/delta_rel Fz/spectral_edge]
	// after 2.0 s: [1.00 0.00 10.45 0.00 1.00 3.45]
	// after 3.0 s: [1.00 0.00 10.45 0.47 0.45 10.45]
	// after 4.0 s: [1.00 0.00 10.45 1.00 0.00 10.45]
}
