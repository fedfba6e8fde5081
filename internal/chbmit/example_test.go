package chbmit_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/ictal/ictal/internal/chbmit"
)

func ExampleParse() {
	summary := `Data Sampling Rate: 256 Hz
*************************

Channels in EDF Files:
**********************
Channel 1: FP1-F7
Channel 2: F7-T7

File Name: chb01_03.edf
File Start Time: 13:43:04
File End Time: 14:43:04
Number of Seizures in File: 1
Seizure Start Time: 2996 seconds
Seizure End Time: 3036 seconds
`
	s, err := chbmit.Parse(strings.NewReader(summary), "chb01-summary.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	f, _ := s.Lookup("/data/chb01/chb01_03.edf")
	for _, iv := range f.Intervals() {
		fmt.Println(iv.Start, iv.End, iv.Seizure)
	}
	// Output: 49m56s 50m36s true
}

func ExampleCommonChannels() {
	files := []chbmit.File{
		{Name: "chb11_01.edf", Channels: []string{"FP1-F7", "F7-T7", "T8-P8", "ECG", "T8-P8"}},
		{Name: "chb11_99.edf", Channels: []string{"FP1-F7", "-", "F7-T7", "FZ-CZ"}},
	}
	common, left := chbmit.CommonChannels(files)
	fmt.Println(common, left)
	fmt.Println(files[1].Lacks(common), files[1].Lacks([]string{"t8-p8"}))
	// Output:
	// [FP1-F7 F7-T7] [T8-P8 FZ-CZ]
	// [] [t8-p8]
}

func ExampleTally() {
	var all chbmit.Tally
	all.Add(chbmit.Tally{Records: 1, Seizures: 2, Detected: 2, Duration: 12 * time.Hour, Delays: []time.Duration{4 * time.Second, 6 * time.Second}})
	all.Add(chbmit.Tally{Records: 1, Seizures: 1, FalseAlarms: 1, Duration: 12 * time.Hour})
	d, _ := all.MedianDelay()
	fmt.Printf("%d records: sensitivity %.3f, %.0f false alarms per 24 h, median delay %v\n", all.Records, all.Sensitivity(), all.FalseAlarmsPerDay(), d)
	// Output: 2 records: sensitivity 0.667, 1 false alarms per 24 h, median delay 5s
}
