package detmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ulps returns the distance in units in the last place between a and b.
func ulps(a, b float64) float64 {
	if a == b {
		return 0
	}
	if math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return math.Inf(1)
	}
	d := math.Abs(a - b)
	u := math.Nextafter(math.Abs(b), math.Inf(1)) - math.Abs(b)
	return d / u
}

// checkAccuracy compares f, detmath's name, with ref, math's, at 200000
// points draw(i) and fails at the first error over 2 ulps.
func checkAccuracy(t *testing.T, name string, f, ref func(float64) float64, draw func(i int) float64) {
	t.Helper()
	worst := 0.0
	for i := 0; i < 200000; i++ {
		x := draw(i)
		if u := ulps(f(x), ref(x)); u > worst {
			worst = u
			if u > 2 {
				t.Fatalf("%s(%v) = %v, math.%s %v: %v ulps", name, x, f(x), name, ref(x), u)
			}
		}
	}
	t.Logf("worst %s error %.2f ulps", name, worst)
}

func TestExpAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	checkAccuracy(t, "Exp", Exp, math.Exp, func(i int) float64 {
		x := (r.Float64()*2 - 1) * 700
		if i%2 == 0 {
			x = (r.Float64()*2 - 1) * 20
		}
		return x
	})
}

func TestLogAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	checkAccuracy(t, "Log", Log, math.Log, func(i int) float64 {
		x := math.Ldexp(r.Float64()+0.5, r.IntN(2000)-1000)
		if i%3 == 0 {
			x = 0.5 + r.Float64()*1.5 // near 1, where cancellation bites
		}
		return x
	})
}

func TestSpecialValues(t *testing.T) {
	tests := []struct {
		name string
		got  float64
		want float64
	}{
		{"Exp(0)", Exp(0), 1},
		{"Exp(1)", Exp(1), math.E},
		{"Exp(-Inf)", Exp(math.Inf(-1)), 0},
		{"Exp(+Inf)", Exp(math.Inf(1)), math.Inf(1)},
		{"Exp(800)", Exp(800), math.Inf(1)},
		{"Exp(-800)", Exp(-800), 0},
		{"Log(1)", Log(1), 0},
		{"Log(e)", Log(math.E), 1},
		{"Log(0)", Log(0), math.Inf(-1)},
		{"Log(+Inf)", Log(math.Inf(1)), math.Inf(1)},
		{"Log(2^-1074)", Log(math.SmallestNonzeroFloat64), -1074 * math.Ln2}, // amd64 math.Log gets subnormals wrong
		{"Log(MaxFloat64)", Log(math.MaxFloat64), math.Log(math.MaxFloat64)},
		{"LogFactorial(0)", LogFactorial(0), 0},
		{"LogFactorial(1)", LogFactorial(1), 0},
		{"LogFactorial(5)", LogFactorial(5), math.Log(120)},
	}
	for _, tt := range tests {
		if ulps(tt.got, tt.want) > 2 {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	for _, v := range []float64{Exp(math.NaN()), Log(math.NaN()), Log(-1), LogFactorial(-1)} {
		if !math.IsNaN(v) {
			t.Errorf("got %v, want NaN", v)
		}
	}
}

func TestLogFactorial(t *testing.T) {
	for _, k := range []float64{2, 10, 100, 255, 256, 257, 1000, 12345, 1e6, 1e9} {
		want, _ := math.Lgamma(k + 1)
		if got := LogFactorial(k); math.Abs(got-want) > 1e-14*math.Abs(want) {
			t.Errorf("LogFactorial(%v) = %.17g, want %.17g", k, got, want)
		}
	}
}

// TestGoldenBits pins exact outputs, recorded on amd64. The same bits must
// come out on every architecture (the cross/ tests run this under qemu for
// arm64 and armv7); a difference means a fused or platform-dependent
// operation crept in.
func TestGoldenBits(t *testing.T) {
	tests := []struct {
		name string
		got  float64
		bits uint64
	}{
		{"Exp(-7.3)", Exp(-7.3), 0x3f4622d4792b6a8d},
		{"Exp(0.1)", Exp(0.1), 0x3ff1aec7b35a00d4},
		{"Exp(123.456)", Exp(123.456), 0x4b11428e1cbc0143},
		{"Log(40)", Log(40), 0x400d82d33b32720d},
		{"Log(1e-300)", Log(1e-300), 0xc085963447f87fb5},
		{"Log(1.0000001)", Log(1.0000001), 0x3e7ad7f2847b6491},
		{"LogFactorial(1234)", LogFactorial(1234), 0x40bd821c29a587bc},
	}
	for _, tt := range tests {
		if b := math.Float64bits(tt.got); b != tt.bits {
			t.Errorf("%s = %v (bits %#016x), want bits %#016x", tt.name, tt.got, b, tt.bits)
		}
	}
}

func BenchmarkExp(b *testing.B) {
	x := 0.0
	for i := 0; i < b.N; i++ {
		x += Exp(-float64(i&15) * 0.5)
	}
	_ = x
}

func BenchmarkLog(b *testing.B) {
	x := 0.0
	for i := 0; i < b.N; i++ {
		x += Log(float64(i&1023) + 0.5)
	}
	_ = x
}

func TestSinCosTan(t *testing.T) {
	for i := -1000; i <= 1000; i++ {
		x := math.Pi * float64(i) / 1000
		s, c := SinCos(x)
		if d := math.Abs(s - math.Sin(x)); d > 2*ulp(math.Sin(x)) && d > 1e-30 {
			t.Errorf("sin(%g) = %.17g, math says %.17g", x, s, math.Sin(x))
		}
		if d := math.Abs(c - math.Cos(x)); d > 2*ulp(math.Cos(x)) && d > 1e-30 {
			t.Errorf("cos(%g) = %.17g, math says %.17g", x, c, math.Cos(x))
		}
		if y := x / 2.01; true {
			if got, want := Tan(y), math.Tan(y); math.Abs(got-want) > 4*ulp(want) {
				t.Errorf("tan(%g) = %.17g, math says %.17g", y, got, want)
			}
		}
	}
	if s, _ := SinCos(4); !math.IsNaN(s) {
		t.Errorf("SinCos(4) = %g, want NaN (outside [−π, π])", s)
	}
	if v := Tan(math.Pi / 2); !math.IsNaN(v) {
		t.Errorf("Tan(π/2) = %g, want NaN", v)
	}
}

func ulp(x float64) float64 {
	x = math.Abs(x)
	return math.Nextafter(x, math.Inf(1)) - x
}

// logLoop is Log as it was written first, computing each coefficient 1/n
// of the series by a division; Log's constants must give the same bits.
func logLoop(x float64) float64 {
	f, e := math.Frexp(x)
	if f < math.Sqrt2/2 {
		f *= 2
		e--
	}
	z := (f - 1) / (f + 1)
	w := float64(z * z)
	s := 0.0
	for n := 21; n >= 3; n -= 2 {
		s = float64(w * (1/float64(n) + s))
	}
	lf := 2*z + float64(float64(2*z)*s)
	k := float64(e)
	return float64(k*ln2Hi) + (lf + float64(k*ln2Lo))
}

// TestLogSeriesConstants compares Log with logLoop bit for bit on
// positive finite values of every binade, subnormals included, and on
// values next to 1 and to √2/2, where the reduction switches.
func TestLogSeriesConstants(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	check := func(x float64) {
		t.Helper()
		if got, want := Log(x), logLoop(x); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("Log(%v) = %v (%#x), the division loop gives %v (%#x)", x, got, math.Float64bits(got), want, math.Float64bits(want))
		}
	}
	for i := 0; i < 200000; i++ {
		check(math.Float64frombits(1 + rng.Uint64N(0x7ff0000000000000-1)))
	}
	for _, c := range []float64{1, math.Sqrt2 / 2, 2, 0.5} {
		x := c
		for i := 0; i < 1000; i++ {
			check(x)
			check(math.Nextafter(c, 0) - float64(i)*0x1p-60)
			x = math.Nextafter(x, math.Inf(1))
		}
	}
}
