package paper

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/classifier/batch"
)

// Modes.
const (
	ModeOnline = "online"
	ModeBatch  = "batch"
)

// split is a standardised train/test split.
type split struct {
	xtr, xte [][]float64
	ytr, yte []bool
	ratio    float64 // negatives/positives of the training set
}

// makeSplit copies the rows of train and test, standardising every feature
// with the training rows' mean and standard deviation (a feature constant
// on the training rows is only centred).
func makeSplit(X [][]float64, y []bool, train, test []int) split {
	d := len(X[0])
	mean, sd := make([]float64, d), make([]float64, d)
	for _, i := range train {
		for j, v := range X[i] {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(len(train))
	}
	for _, i := range train {
		for j, v := range X[i] {
			sd[j] += (v - mean[j]) * (v - mean[j])
		}
	}
	for j := range sd {
		sd[j] = math.Sqrt(sd[j] / float64(len(train)))
		if !(sd[j] > 0) {
			sd[j] = 1
		}
	}
	z := func(idx []int) ([][]float64, []bool) {
		xs, ys := make([][]float64, len(idx)), make([]bool, len(idx))
		for k, i := range idx {
			r := make([]float64, d)
			for j, v := range X[i] {
				r[j] = (v - mean[j]) / sd[j]
			}
			xs[k], ys[k] = r, y[i]
		}
		return xs, ys
	}
	var s split
	s.xtr, s.ytr = z(train)
	s.xte, s.yte = z(test)
	var p float64
	for _, v := range s.ytr {
		if v {
			p++
		}
	}
	s.ratio = (float64(len(s.ytr)) - p) / p
	return s
}

// fitScore trains cfg in mode on the training rows and returns its scores
// of the test rows. Online, the training rows are learned once each in a
// random order drawn from cfg.Seed.
func fitScore(cfg classifier.Config, mode string, s split) ([]float64, error) {
	var m interface {
		Score(x []float64) (float64, error)
	}
	switch mode {
	case ModeBatch:
		b, err := batch.Train(cfg, s.xtr, s.ytr)
		if err != nil {
			return nil, err
		}
		m = b
	case ModeOnline:
		o, err := classifier.New(cfg)
		if err != nil {
			return nil, err
		}
		rng := rand.New(rand.NewPCG(cfg.Seed, 0x6f72646572))
		for _, i := range rng.Perm(len(s.xtr)) {
			if err := o.Learn(s.xtr[i], s.ytr[i]); err != nil {
				return nil, err
			}
		}
		m = o
	default:
		return nil, fmt.Errorf("paper: mode %q: want online or batch", mode)
	}
	out := make([]float64, len(s.xte))
	for i, x := range s.xte {
		var err error
		if out[i], err = m.Score(x); err != nil {
			return nil, err
		}
	}
	return out, nil
}
