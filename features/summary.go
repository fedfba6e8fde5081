package features

import "slices"

// numSummaries is the number of cross-channel features Config.Summaries adds.
const numSummaries = 4

// summaryNames name the cross-channel features, in vector order.
var summaryNames = [numSummaries]string{
	"max/line_length",
	"median/line_length",
	"max/delta_theta_rel",
	"median/delta_theta_rel",
}

// summarize writes the cross-channel features into out (numSummaries
// long) from the per-channel features of the current window.
func (e *Extractor) summarize(out []float64) {
	s := e.scratch
	for c := range s {
		s[c] = e.perChan[c*numFeatures+int(LineLength)]
	}
	out[0], out[1] = maxMedian(s)
	for c := range s {
		all := e.perChan[c*numFeatures : (c+1)*numFeatures]
		s[c] = all[DeltaRel] + all[ThetaRel]
	}
	out[2], out[3] = maxMedian(s)
}

// maxMedian sorts s in place and returns its maximum and median (the mean
// of the two middle values when len(s) is even).
func maxMedian(s []float64) (maximum, median float64) {
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n-1], s[n/2]
	}
	return s[n-1], (s[n/2-1] + s[n/2]) / 2
}
