package pipeline

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/features"
	"github.com/ictal/ictal/features/artifact"
	"github.com/ictal/ictal/internal/bonn"
	"github.com/ictal/ictal/internal/datadir"
)

// samplesSource replays one channel of samples (µV) at a given rate.
type samplesSource struct {
	label string
	rate  float64
	x     []float64
	i     int
}

func (s *samplesSource) Info() acquire.Info {
	return acquire.Info{Rate: s.rate, Channels: []acquire.Channel{{Label: s.label, Unit: "uV", Rate: s.rate}}}
}

func (s *samplesSource) ReadFrame(f *acquire.Frame) error {
	if s.i >= len(s.x) {
		return io.EOF
	}
	f.Reset()
	f.Seq, f.Time = uint64(s.i), time.Duration(float64(s.i)/s.rate*float64(time.Second))
	f.Samples[0] = s.x[s.i]
	s.i++
	return nil
}

func (s *samplesSource) Close() error { return nil }

// gateCause is why a window was gated: "" (usable), an artifact kind, or
// a signal-quality rule (saturation, flat, invalid, lead-off, gap).
type gateCause string

// gateWindows replays src through a pipeline with the default features
// and artifact rules, learning off, and returns each window's end and the
// cause for which it was gated.
func gateWindows(t *testing.T, src acquire.Source) (ends []time.Duration, causes []gateCause) {
	t.Helper()
	var p *Pipeline
	var prev Stats
	hooks := Hooks{Window: func(s Stats) {
		var c gateCause
		switch {
		case s.Artifact > prev.Artifact:
			c = gateCause(p.art.last.Kind.String())
		case s.ElectrodeOff > prev.ElectrodeOff:
			kind, _ := p.qual.window()
			if kind == okay {
				kind = invalidProblem
			}
			c = gateCause(problemNames[kind])
		case s.SignalLost > prev.SignalLost:
			c = "gap"
		}
		prev = s
		ends = append(ends, s.SignalTime)
		causes = append(causes, c)
	}}
	p = newPipeline(t, src, defaultFeatures, newModel(t, src, defaultFeatures, "UOB"), Config{Learning: Learning{Mode: LearnOff}}, nil, hooks)
	runAll(t, p)
	return ends, causes
}

var problemNames = map[int]string{gapProblem: "gap", leadProblem: "lead-off", satProblem: "saturation", flatProblem: "flat", invalidProblem: "invalid"}

// gateTally counts windows per set and cause.
type gateTally struct {
	windows map[string]int
	causes  map[string]map[gateCause]int
	// electrodeRun is the most windows in a row gated as electrode
	// artifact within one segment of the set.
	electrodeRun map[string]int
}

func newGateTally() *gateTally {
	return &gateTally{windows: map[string]int{}, causes: map[string]map[gateCause]int{}, electrodeRun: map[string]int{}}
}

func (g *gateTally) add(set string, c gateCause) {
	g.windows[set]++
	if g.causes[set] == nil {
		g.causes[set] = map[gateCause]int{}
	}
	if c != "" {
		g.causes[set][c]++
	}
}

// gated is the fraction of set's windows gated for any cause.
func (g *gateTally) gated(set string) float64 {
	n := 0
	for _, k := range g.causes[set] {
		n += k
	}
	return float64(n) / float64(max(g.windows[set], 1))
}

func (g *gateTally) String() string {
	var sets []string
	for s := range g.windows {
		sets = append(sets, s)
	}
	sort.Strings(sets)
	var b strings.Builder
	for _, s := range sets {
		fmt.Fprintf(&b, "\n%-12s %5d windows, gated %5.1f %%:", s, g.windows[s], 100*g.gated(s))
		var cs []string
		for c := range g.causes[s] {
			cs = append(cs, string(c))
		}
		sort.Strings(cs)
		for _, c := range cs {
			k := g.causes[s][gateCause(c)]
			fmt.Fprintf(&b, " %s %d (%.1f %%)", c, k, 100*float64(k)/float64(g.windows[s]))
		}
	}
	return b.String()
}

// loadBonn reads all segments of the shared Bonn data in place.
func loadBonn(t *testing.T) []bonn.Segment {
	t.Helper()
	segs, err := bonn.Load(datadir.Path(t, "data", "eeg", "bonn"), bonn.Sets...)
	if err != nil {
		t.Fatal(err)
	}
	return segs
}

// gateBonnAlone replays every segment as a recording of its own and
// tallies the windows after the settling time by set.
func gateBonnAlone(t *testing.T, segs []bonn.Segment) *gateTally {
	g := newGateTally()
	for _, s := range segs {
		_, causes := gateWindows(t, &samplesSource{label: "EEG", rate: bonn.Rate, x: s.X})
		for _, c := range causes {
			g.add(s.Set, c)
		}
	}
	return g
}

// gateBonnSpliced replays one recording of all segments spliced in a
// seeded random order in which every ictal segment follows four others,
// as in bonn.Concat (see gateOrder).
func gateBonnSpliced(t *testing.T, segs []bonn.Segment, seed uint64) *gateTally {
	var pos, neg []bonn.Segment
	for _, s := range segs {
		if s.Ictal() {
			pos = append(pos, s)
		} else {
			neg = append(neg, s)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	rng.Shuffle(len(pos), func(i, j int) { pos[i], pos[j] = pos[j], pos[i] })
	rng.Shuffle(len(neg), func(i, j int) { neg[i], neg[j] = neg[j], neg[i] })
	var order []bonn.Segment
	for i, s := range pos {
		order = append(order, neg[i*len(neg)/len(pos):(i+1)*len(neg)/len(pos)]...)
		order = append(order, s)
	}
	return gateOrder(t, order)
}

// gateOrder replays the segments spliced in order and tallies windows by
// the set of the segment they lie in, and windows across a splice apart
// ("splice>S": ending in an S segment).
func gateOrder(t *testing.T, order []bonn.Segment) *gateTally {
	var x []float64
	var starts []int
	for _, s := range order {
		starts = append(starts, len(x))
		x = append(x, s.X...)
	}
	ends, causes := gateWindows(t, &samplesSource{label: "EEG", rate: bonn.Rate, x: x})
	g := newGateTally()
	win := defaultWindowSamples(bonn.Rate)
	run, runSeg := 0, -1
	for i, e := range ends {
		last := int(e.Seconds()*bonn.Rate+0.5) - 1 // index of the window's last sample
		first := last - win + 1
		k := sort.SearchInts(starts, last+1) - 1
		set := order[k].Set
		if first < starts[k] {
			set = "splice>" + set
		}
		g.add(set, causes[i])
		if causes[i] != "electrode" || k != runSeg {
			run = 0
		}
		if causes[i] == "electrode" {
			run, runSeg = run+1, k
			g.electrodeRun[order[k].Set] = max(g.electrodeRun[order[k].Set], run)
		}
	}
	return g
}

// defaultWindowSamples is the number of samples of a default window.
func defaultWindowSamples(rate float64) int { return int(2*rate + 0.5) }

// merge adds o's counts to g.
func (g *gateTally) merge(o *gateTally) {
	for set, n := range o.windows {
		g.windows[set] += n
		if g.causes[set] == nil {
			g.causes[set] = map[gateCause]int{}
		}
		for c, k := range o.causes[set] {
			g.causes[set][c] += k
		}
	}
	for set, n := range o.electrodeRun {
		g.electrodeRun[set] = max(g.electrodeRun[set], n)
	}
}

// count is the number of set's windows gated for a cause other than
// those in except.
func (g *gateTally) count(set string, except ...gateCause) int {
	n := 0
	for c, k := range g.causes[set] {
		if !slices.Contains(except, c) {
			n += k
		}
	}
	return n
}

// TestBonnGating replays every Bonn segment (80 per set) through the
// pipeline's quality and artifact gates, alone and spliced as bonn.Concat
// splices them, and bounds the windows gated. Seizure EEG (set S: high
// amplitude, rhythmic, spiky, clipped at +2047) must pass: an ictal
// window gated is neither scored nor learned. Measured (features/artifact
// doc, "Measured"): alone, no window after the settling time is gated in
// any set; spliced (seeds 1–4), 1.9 % of the S windows and 0.0–0.6 % of
// the others', against 69.5 % of S before the rules were made specific.
func TestBonnGating(t *testing.T) {
	segs := loadBonn(t)
	alone := gateBonnAlone(t, segs)
	spliced := newGateTally()
	for seed := uint64(1); seed <= 4; seed++ {
		spliced.merge(gateBonnSpliced(t, segs, seed))
	}
	t.Logf("alone:%v", alone)
	t.Logf("spliced, seeds 1-4:%v", spliced)
	quality := []gateCause{"saturation", "flat", "invalid", "lead-off", "gap"}
	for _, set := range bonn.Sets {
		// Alone, the first 4 s of each segment settle; nothing else may be
		// gated: each segment is its own background.
		if n := alone.count(set, "settling"); n > 0 {
			t.Errorf("set %s alone: %d windows gated after settling, want none", set, n)
		}
		// No Bonn window is flat, saturated or invalid: the peaks clipped
		// at +2047 are single samples, not an amplifier at its rail.
		for _, g := range []*gateTally{alone, spliced} {
			for _, c := range quality {
				if k := g.causes[set][c]; k > 0 {
					t.Errorf("set %s: %d windows gated for %s", set, k, c)
				}
			}
		}
		// Spliced, at most 5 % of the seizure windows (about one of a
		// segment's 22, which a 3-of-4 detector bridges) and 2 % of the
		// others (a few an hour at one window a second, each a spliced
		// background's mismatch rather than an artifact of the EEG).
		limit := 0.02
		if set == "S" {
			limit = 0.05
		}
		if f := float64(spliced.count(set)) / float64(spliced.windows[set]); f > limit {
			t.Errorf("set %s spliced: %.1f %% of %d windows gated, want at most %.0f %%", set, 100*f, spliced.windows[set], 100*limit)
		}
		// Windows across a splice hold a real discontinuity; still, at
		// most 10 % of them are gated (5 % measured).
		w := "splice>" + set
		if f := float64(spliced.count(w)) / float64(spliced.windows[w]); f > 0.10 {
			t.Errorf("%s: %.1f %% of %d windows gated, want at most 10 %%", w, 100*f, spliced.windows[w])
		}
	}
}

// TestBonnSeizureAfterQuietBackground splices every S segment after a
// segment of set Z and one of set O (healthy surface EEG, eyes open and
// closed): a seizure's high-amplitude slow waves after a low-amplitude
// background raise every band, δ most, as electrode movement does. The
// electrode rules may gate a seizure for at most their episode limit
// (artifact.Config.Electrode, 10 windows at the default step); without
// it they gated 9.6 % of these seizure windows, whole segments (23
// windows in a row) among them, and on the spliced test recordings of
// internal/eval two seizures went undetected for it. With it: 6.5 %, at
// most 10 in a row.
func TestBonnSeizureAfterQuietBackground(t *testing.T) {
	var z, o, ictal []bonn.Segment
	for _, s := range loadBonn(t) {
		switch s.Set {
		case "Z":
			z = append(z, s)
		case "O":
			o = append(o, s)
		case "S":
			ictal = append(ictal, s)
		}
	}
	var order []bonn.Segment
	for i := range ictal {
		order = append(order, z[i], o[i], ictal[i])
	}
	g := gateOrder(t, order)
	t.Logf("S after Z and O:%v\nmost windows in a row gated as electrode artifact within a segment: %v", g, g.electrodeRun)
	if n, limit := g.electrodeRun["S"], int(artifact.DefaultElectrode/features.DefaultStep); n > limit {
		t.Errorf("an S segment had %d windows in a row gated as electrode artifact, want at most %d", n, limit)
	}
	if n := g.electrodeRun["S"]; n == 0 {
		t.Errorf("no S window was gated as electrode artifact: the case this test is about did not arise")
	}
}
