package keel_test

import (
	"fmt"
	"strings"

	"github.com/ictal/ictal/internal/keel"
)

func ExampleParse() {
	src := "@relation sonar\r\n" +
		"@attribute Band1 real [0.0015, 0.1371]\r\n" +
		"@attribute Type{R, M}\r\n" +
		"@inputs Band1\r\n" +
		"@outputs Type\r\n" +
		"@data\r\n" +
		"0.0200, R\r\n" +
		"0.0453,M"
	d, err := keel.Parse(strings.NewReader(src), "sonar.dat")
	if err != nil {
		fmt.Println(err)
		return
	}
	// sonar's positive class is R, by keel.PositiveLabels.
	fmt.Println(d.Name, d.Inputs, d.Positive, d.X, d.Y)
	// Output: sonar [Band1] R [[0.02] [0.0453]] [true false]
}
