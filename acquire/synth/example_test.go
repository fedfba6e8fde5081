package synth_test

import (
	"fmt"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/synth"
)

func ExampleNew() {
	p, err := synth.New(synth.Config{
		Channels: 4,
		Duration: 10 * time.Minute,
		Onsets:   []time.Duration{2 * time.Minute, 6 * time.Minute},
		Seed:     1,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()
	for i, c := range p.Info().Channels {
		if i > 0 {
			fmt.Print(" ")
		}
		fmt.Print(c.Label)
	}
	fmt.Println()
	for _, iv := range p.Intervals() {
		fmt.Println(iv.Text, iv.Start, iv.Seizure)
	}
	f := acquire.NewFrame(len(p.Info().Channels))
	for range 257 {
		if err := p.ReadFrame(f); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Println(f.Seq, f.Time)
	// Output:
	// Fp1-F7 F7-T7 T7-P7 P7-O1
	// seizure 2m0s true
	// seizure 6m0s true
	// 256 1s
}

func ExampleNew_badConfig() {
	_, err := synth.New(synth.Config{Duration: 5 * time.Minute, Seizures: 4})
	fmt.Println(err)
	// Output:
	// synth: invalid config: Seizures: 4 seizures of up to 1m30s, each with 1m0s around it, do not fit in Duration (5m0s): at most 2
}
