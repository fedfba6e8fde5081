package synth

import (
	"sort"

	"github.com/ictal/ictal/acquire"
)

// Interval texts.
const (
	TextSeizure = "seizure"
	TextBlink   = "artifact: blink"
	TextMuscle  = "artifact: muscle"
)

// Intervals lists the seizures (Seizure true, text "seizure" or, for the
// kinds other than rhythmic, "seizure: " and the kind, as in "seizure:
// gtcs") and the artifacts (Seizure false, texts "artifact: blink",
// "artifact: muscle" and "artifact: " and the kind of ArtifactKinds, as in
// "artifact: chewing") of the whole recording, ordered by start. It
// replays the artifact streams from the beginning, so it costs time
// proportional to the number of artifacts, not of samples.
func (p *Patient) Intervals() []acquire.Interval {
	var out []acquire.Interval
	for _, s := range p.sz {
		out = append(out, acquire.Interval{Start: p.stamp(s.onset), End: p.stamp(s.end), Text: s.kind.Text(), Seizure: true})
	}
	all := []events{p.blink0, p.muscle0}
	for _, m := range p.mimics {
		all = append(all, m.ev0)
	}
	for _, e := range all {
		text := TextBlink
		switch e.kind {
		case kindMuscle:
			text = TextMuscle
		case kindMimic:
			text = e.art.Text()
		}
		for ; e.cur.start < p.total; e.advance() {
			if e.kind == kindMimic && p.nearSeizure(e.cur) {
				continue
			}
			out = append(out, acquire.Interval{Start: p.stamp(e.cur.start), End: p.stamp(min(e.cur.end, p.total)), Text: text})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

var (
	_ acquire.Source  = (*Patient)(nil)
	_ acquire.Labeled = (*Patient)(nil)
)
