package resample

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
)

// Rate is a sampling rate in hertz held exactly as the fraction Num/Den in
// lowest terms: 256/1, 17361/100 (173.61 Hz), 20485/118 (an EDF file of
// 4097 samples per 23.6-s record). Holding rates as fractions keeps the
// output's sample times exact over any length of recording.
type Rate struct {
	Num, Den int64
}

// Limits on the terms of a Rate, so that the arithmetic on two rates
// (products of a numerator and a denominator) stays within int64.
const (
	MaxDen = 1_000_000       // largest denominator: six decimals
	MaxNum = 100_000_000_000 // largest numerator: 100 kHz with six decimals
)

// ParseRate reads a rate written as a decimal ("256", "173.61") or a
// fraction ("20485/118"), exactly. It refuses anything that is not a
// positive finite number with at most MaxDen as denominator in lowest
// terms.
func ParseRate(s string) (Rate, error) {
	q, ok := new(big.Rat).SetString(s)
	if !ok {
		return Rate{}, fmt.Errorf("resample: rate %q: not a number", s)
	}
	if q.Sign() <= 0 {
		return Rate{}, fmt.Errorf("resample: rate %q: must be positive", s)
	}
	if !q.Denom().IsInt64() || q.Denom().Int64() > MaxDen {
		return Rate{}, fmt.Errorf("resample: rate %q: more than six decimals", s)
	}
	if !q.Num().IsInt64() || q.Num().Int64() > MaxNum {
		return Rate{}, fmt.Errorf("resample: rate %q: above %d Hz", s, MaxNum/MaxDen)
	}
	return Rate{q.Num().Int64(), q.Denom().Int64()}, nil
}

// RateOf returns the fraction closest to hz with a denominator of at most
// MaxDen: the last convergent of hz's continued fraction within that
// bound, stopping early at the first that equals hz to 1e-12 relative.
// A rate computed as samples per record over an EDF record duration
// (4097/23.6 s) comes back exact (20485/118); any other rate is within
// 1e-12 relative, a drift of one sample in 10¹² samples.
func RateOf(hz float64) (Rate, error) {
	if math.IsNaN(hz) || math.IsInf(hz, 0) || hz <= 0 {
		return Rate{}, fmt.Errorf("resample: rate %v Hz: must be positive and finite", hz)
	}
	if hz > float64(MaxNum/MaxDen) {
		return Rate{}, fmt.Errorf("resample: rate %v Hz: above %d Hz", hz, MaxNum/MaxDen)
	}
	// Convergents p/q of the continued fraction [a0; a1, a2, …] of hz.
	p0, q0, p1, q1 := int64(1), int64(0), int64(math.Floor(hz)), int64(1)
	x := hz - math.Floor(hz)
	for x > 0 && math.Abs(float64(p1)/float64(q1)-hz) > 1e-12*hz {
		x = 1 / x
		a := math.Floor(x)
		if a > float64(MaxDen) {
			break
		}
		p2, q2 := int64(a)*p1+p0, int64(a)*q1+q0
		if q2 > MaxDen {
			break
		}
		p0, q0, p1, q1 = p1, q1, p2, q2
		x -= a
	}
	if p1 == 0 { // hz below 1/MaxDen's resolution: the bound cannot hold it
		return Rate{}, fmt.Errorf("resample: rate %v Hz: too small", hz)
	}
	return Rate{p1, q1}, nil
}

// Hz returns the rate as a float64.
func (r Rate) Hz() float64 { return float64(r.Num) / float64(r.Den) }

// String writes the rate as a decimal when it has one of at most six
// places ("256", "173.61"), as a fraction otherwise ("20485/118").
func (r Rate) String() string {
	if r.Den == 0 {
		return "0/0"
	}
	d := r.Den
	places := 0
	for d%10 == 0 || d%2 == 0 || d%5 == 0 {
		switch {
		case d%10 == 0:
			d /= 10
		case d%2 == 0:
			d /= 2
		default:
			d /= 5
		}
		places++
	}
	if d != 1 || places > 6 {
		return strconv.FormatInt(r.Num, 10) + "/" + strconv.FormatInt(r.Den, 10)
	}
	return big.NewRat(r.Num, r.Den).FloatString(places)
}

// valid reports whether r is a positive fraction within the limits, in
// lowest terms.
func (r Rate) valid() error {
	if r.Num <= 0 || r.Den <= 0 || r.Num > MaxNum || r.Den > MaxDen {
		return fmt.Errorf("resample: rate %d/%d: want a positive fraction with numerator ≤ %d and denominator ≤ %d", r.Num, r.Den, int64(MaxNum), MaxDen)
	}
	if gcd(r.Num, r.Den) != 1 {
		return fmt.Errorf("resample: rate %d/%d: not in lowest terms", r.Num, r.Den)
	}
	return nil
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
