package paper_test

import (
	"fmt"

	"github.com/ictal/ictal/internal/paper"
)

func ExampleAUCPoints() {
	// Three cost settings gave these operating points on a test fold; with
	// (0,0) and (1,1) the trapezoids are 0.03 + 0.07 + 0.255 + 0.475.
	roc := []paper.Point{{FPR: 0.5, TPR: 0.9}, {FPR: 0.1, TPR: 0.6}, {FPR: 0.2, TPR: 0.8}}
	fmt.Printf("%.3f\n", paper.AUCPoints(roc))
	// Output: 0.830
}

func ExampleAUCScores() {
	scores := []float64{0.9, 0.4, 0.4, 0.1}
	labels := []bool{true, true, false, false}
	fmt.Println(paper.AUCScores(scores, labels)) // the tie at 0.4 counts ½
	// Output: 0.875
}
