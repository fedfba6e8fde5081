package chbmit_test

import (
	"fmt"
	"strings"

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
