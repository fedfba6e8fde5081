package synth

import (
	"math"
	"strconv"
	"strings"
)

// point is a position on a flat projection of the scalp: x to the right
// ear, y to the nose, the T7–Fpz–T8–Oz circle at radius 1.
type point struct{ x, y float64 }

func dist(a, b point) float64 {
	dx, dy := a.x-b.x, a.y-b.y
	return math.Sqrt(mul(dx, dx) + mul(dy, dy))
}

// electrodes lists the 10–20 positions the montages use (with the old names
// T3 T4 T5 T6 as aliases) and the inferior temporal FT9/FT10.
var electrodes = []struct {
	name string
	pos  point
}{
	{"Fp1", point{-0.31, 0.95}}, {"Fpz", point{0, 1}}, {"Fp2", point{0.31, 0.95}},
	{"F7", point{-0.81, 0.59}}, {"F3", point{-0.41, 0.51}}, {"Fz", point{0, 0.5}},
	{"F4", point{0.41, 0.51}}, {"F8", point{0.81, 0.59}},
	{"FT9", point{-1.1, 0.36}}, {"FT10", point{1.1, 0.36}},
	{"T7", point{-1, 0}}, {"C3", point{-0.5, 0}}, {"Cz", point{0, 0}},
	{"C4", point{0.5, 0}}, {"T8", point{1, 0}},
	{"P7", point{-0.81, -0.59}}, {"P3", point{-0.41, -0.51}}, {"Pz", point{0, -0.5}},
	{"P4", point{0.41, -0.51}}, {"P8", point{0.81, -0.59}},
	{"O1", point{-0.31, -0.95}}, {"Oz", point{0, -1}}, {"O2", point{0.31, -0.95}},
	{"T3", point{-1, 0}}, {"T4", point{1, 0}}, {"T5", point{-0.81, -0.59}}, {"T6", point{0.81, -0.59}},
}

// montage is the default channel order: the longitudinal bipolar ("double
// banana") chains left temporal, left parasagittal, right parasagittal,
// right temporal and midline, then the inferior temporal and central
// transverse derivations of the CHB-MIT recordings.
var montage = []string{
	"Fp1-F7", "F7-T7", "T7-P7", "P7-O1",
	"Fp1-F3", "F3-C3", "C3-P3", "P3-O1",
	"Fp2-F4", "F4-C4", "C4-P4", "P4-O2",
	"Fp2-F8", "F8-T8", "T8-P8", "P8-O2",
	"Fz-Cz", "Cz-Pz",
	"T7-FT9", "FT9-FT10", "FT10-T8",
	"C3-Cz", "Cz-C4",
}

// DefaultLabels returns the labels of the first n channels of the default
// montage: the 23 bipolar derivations "Fp1-F7", "F7-T7", … of a CHB-MIT
// style double banana, then "E24", "E25", … for generated electrodes
// referred to Cz (placed on a golden-angle spiral over the scalp).
func DefaultLabels(n int) []string {
	labels := make([]string, n)
	for i := range labels {
		if i < len(montage) {
			labels[i] = montage[i]
		} else {
			labels[i] = "E" + strconv.Itoa(i+1)
		}
	}
	return labels
}

// site is where a channel records: the potential at a minus that at b.
type site struct{ a, b point }

func (s site) mid() point { return point{(s.a.x + s.b.x) / 2, (s.a.y + s.b.y) / 2} }

// lookupElectrode finds a 10–20 name, ignoring case.
func lookupElectrode(name string) (point, bool) {
	for _, e := range electrodes {
		if strings.EqualFold(e.name, name) {
			return e.pos, true
		}
	}
	return point{}, false
}

// siteOf places channel i with this label: a label "A-B" (optionally
// prefixed "EEG ") naming two known electrodes is that derivation;
// anything else is a generated electrode on a golden-angle spiral, referred
// to Cz.
func siteOf(i int, label string) site {
	l := strings.TrimSpace(label)
	if len(l) > 4 && strings.EqualFold(l[:4], "EEG ") {
		l = strings.TrimSpace(l[4:])
	}
	if a, b, ok := strings.Cut(l, "-"); ok {
		pa, oka := lookupElectrode(strings.TrimSpace(a))
		pb, okb := lookupElectrode(strings.TrimSpace(b))
		if oka && okb {
			return site{pa, pb}
		}
	}
	const golden = 0.3819660112501051 // 1 − 1/φ turns
	j := float64(i)
	frac := mul(j, 0.6180339887498949)
	frac -= math.Floor(frac)
	r := 0.3 + mul(0.75, frac)
	turn := mul(j, golden)
	return site{a: point{mul(r, sin2pi(turn)), mul(r, cos2pi(turn))}, b: point{0, 0}}
}

// field is a smooth scalar potential on the scalp: the sum of Gaussian
// bumps of width² w2 at the given centres.
func field(p point, w2 float64, centres ...point) float64 {
	v := 0.0
	for _, c := range centres {
		dx, dy := p.x-c.x, p.y-c.y
		v += expm(-(mul(dx, dx) + mul(dy, dy)) / w2)
	}
	return v
}

// derive returns what a bipolar channel at s records of a potential f.
func (s site) derive(f func(point) float64) float64 { return f(s.a) - f(s.b) }

// Spatial patterns, normalised so the strongest standard derivation has a
// gain near 1.
var (
	eyes      = []point{{-0.33, 1.2}, {0.33, 1.2}}
	occiput   = point{0, -1.15}
	blinkNorm = 0.8
	alphaNorm = 0.6
)

func blinkGain(s site) float64 {
	return s.derive(func(p point) float64 { return field(p, 0.2, eyes...) }) / blinkNorm
}

func alphaGain(s site) float64 {
	return s.derive(func(p point) float64 { return field(p, 0.45, occiput) }) / alphaNorm
}

// muscleGain is how much temporalis and frontalis activity on one side
// (side < 0 left, > 0 right) reaches the channel: full on an electrode at
// |x| ≥ 0.9, none inside |x| = 0.6.
func muscleGain(s site, side float64) float64 {
	g := 0.0
	for _, p := range []point{s.a, s.b} {
		if p.x*side <= 0 {
			continue
		}
		v := (math.Abs(p.x) - 0.6) / 0.3
		g = math.Max(g, math.Min(math.Max(v, 0), 1))
	}
	return g
}
