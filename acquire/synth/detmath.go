package synth

import (
	"math"
	"math/rand/v2"
)

// The signal must be bit-identical on every architecture, so this file
// provides the only arithmetic the generator uses beyond +, -, *, / and
// math.Sqrt (all correctly rounded by IEEE 754):
//
//   - mul rounds a product explicitly. The Go specification lets a compiler
//     fuse x*y+z into one fused multiply-add, and it does so on arm64,
//     ppc64le, s390x and riscv64 but not on amd64; an explicit conversion
//     forbids the fusion. Every product that feeds an addition goes through
//     mul.
//   - sin2pi and expm replace math.Sin and math.Exp, whose results differ in
//     the last bit between the assembly (amd64, arm64, s390x) and Go
//     implementations and, in the Go code, with fusion.
//   - normal and uniform turn PCG output into floats with integer
//     arithmetic and one exact conversion.

// mul returns a*b rounded to float64, never fused with a following addition.
func mul(a, b float64) float64 { return float64(a * b) }

// sin2pi returns sin(2πx) using only explicitly rounded operations. It is
// accurate to a few ulps, which is plenty for wave tables and filter
// coefficients; what matters is that it gives the same bits everywhere.
func sin2pi(x float64) float64 {
	x -= math.Floor(x) // [0, 1)
	if x >= 0.5 {
		x -= 1 // [-0.5, 0.5)
	}
	switch {
	case x > 0.25:
		x = 0.5 - x
	case x < -0.25:
		x = -0.5 - x
	}
	t := mul(2*math.Pi, x) // [-π/2, π/2]
	t2 := -mul(t, t)
	term, sum := t, t
	for k := 1; k <= 12; k++ {
		term = mul(term, t2) / float64((2*k)*(2*k+1))
		sum += term
	}
	return sum
}

// cos2pi returns cos(2πx), see sin2pi.
func cos2pi(x float64) float64 { return sin2pi(x + 0.25) }

// expm returns e^x for moderate |x| (below a few hundred) using only
// explicitly rounded operations: the argument is halved until it is small,
// a Taylor series is summed, and the result squared back.
func expm(x float64) float64 {
	m := 0
	for math.Abs(x) > 1.0/16 {
		x /= 2
		m++
	}
	term, sum := 1.0, 1.0
	for k := 1; k <= 14; k++ {
		term = mul(term, x) / float64(k)
		sum += term
	}
	for ; m > 0; m-- {
		sum = mul(sum, sum)
	}
	return sum
}

// normalScale makes normal's output unit-variance: 2s−4·65535, with s the sum
// of four independent uniform integers on [0, 65535], has variance
// 4·(65536²−1)/3.
var normalScale = 1 / math.Sqrt(4*(65536.0*65536.0-1)/3)

// normal returns an approximately standard normal deviate (Irwin–Hall: the
// centred sum of four 16-bit uniforms from one PCG output). Its tails stop
// at ±3.46; after the filters that shape every noise in the model the
// difference from a Gaussian does not show.
func normal(r *rand.PCG) float64 {
	u := r.Uint64()
	s := int64(u&0xffff) + int64(u>>16&0xffff) + int64(u>>32&0xffff) + int64(u>>48)
	return mul(float64(2*s-4*65535), normalScale)
}

// uniform returns a float64 uniformly distributed on [0, 1): 53 random bits
// scaled by an exact power of two.
func uniform(r *rand.PCG) float64 {
	return float64(r.Uint64()>>11) * 0x1p-53
}

// between returns a value uniformly distributed on [lo, hi).
func between(r *rand.PCG, lo, hi float64) float64 {
	return lo + mul(hi-lo, uniform(r))
}

// splitmix64 is the SplitMix64 finaliser, used to derive independent PCG
// seeds from the patient's seed.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// Stream identifiers: each purpose draws from its own PCG so that, for
// instance, changing the blink rate does not change the background noise.
const (
	streamSchedule uint64 = iota + 1
	streamNoise
	streamBlink
	streamMuscle
	streamGeometry
	streamKind       // the parameters of the seizure kinds other than rhythmic
	streamIctal      // their noise (EMG, frequency wander, jerks)
	streamMimicNoise // the noise of the artifacts that mimic seizures
	streamAccel      // the accelerometer's noise
	streamMimic      // + i: the events of ArtifactKinds' i-th kind of artifactKinds
)

// newStream returns the PCG for one purpose of the patient with this seed.
func newStream(seed, purpose uint64) rand.PCG {
	return *rand.NewPCG(splitmix64(seed^purpose<<56), splitmix64(seed+purpose*0x632be59bd9b4e019))
}

// lnm returns the natural logarithm of x > 0 using only explicitly rounded
// operations: x = m·2^e exactly (m in [0.5, 1)), and ln m =
// 2·atanh((m−1)/(m+1)) summed as a series (|z| ≤ 1/3, 30 terms).
func lnm(x float64) float64 {
	m, e := math.Frexp(x)
	z := (m - 1) / (m + 1)
	z2 := mul(z, z)
	term, sum := z, z
	for k := 1; k <= 30; k++ {
		term = mul(term, z2)
		sum += term / float64(2*k+1)
	}
	return mul(2, sum) + mul(float64(e), math.Ln2)
}
