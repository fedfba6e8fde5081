package synth

// The accelerometer of Config.Accelerometer: three axes in g, gravity on Z
// tilted by the posture, sensor noise, and what seizures and artifacts add
// (Patient.accelAdd), the sum low-passed at accelBand like a MEMS
// accelerometer's output filter.
var accelLabels = []string{"Accel X", "Accel Y", "Accel Z"}

// AccelUnit is the unit of the accelerometer channels: g, which
// acquire.ChooseEEG does not take for EEG.
const AccelUnit = "g"

const (
	accelBand  = 20    // Hz, corner of the accelerometer's low-pass
	accelNoise = 0.003 // g RMS of white noise before the low-pass
)

// addAccel writes one frame of the accelerometer into a (three values).
func (p *Patient) addAccel(a []float64) {
	g := [3]float64{0, sin2pi(p.tilt), cos2pi(p.tilt)}
	for i := range a {
		v := g[i] + p.accelAdd[i] + mul(accelNoise, normal(&p.accelNoise))
		a[i] = p.accelLP.step(&p.accelZ[i], v)
	}
}
