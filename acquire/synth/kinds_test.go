package synth

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
)

func TestParseKinds(t *testing.T) {
	tests := []struct {
		list      string
		seizures  []SeizureKind // nil with wantErr
		artifacts []ArtifactKind
		wantErr   string // for both parsers, "" if that one accepts
		artErr    string
	}{
		{list: "", seizures: nil, artifacts: nil},
		{list: "gtcs, absence", seizures: []SeizureKind{SeizureTonicClonic, SeizureAbsence}, artErr: `unknown artifact kind "gtcs"`},
		{list: "gtcs,gtcs", seizures: []SeizureKind{SeizureTonicClonic, SeizureTonicClonic}, artErr: `unknown artifact kind "gtcs"`},
		{list: "chewing,sweat", wantErr: `unknown seizure kind "chewing"`, artifacts: []ArtifactKind{ArtifactChewing, ArtifactSweat}},
		{list: "chewing,chewing", wantErr: `unknown seizure kind "chewing"`, artErr: `artifact kind "chewing" listed twice`},
		{list: "lvfa-onset,,delta", wantErr: `unknown seizure kind ""`, artErr: `unknown artifact kind "lvfa-onset"`},
		{list: "sweat,,chewing", wantErr: `unknown seizure kind "sweat"`, artErr: `unknown artifact kind ""`},
		{list: "seizure", wantErr: "kinds: rhythmic, lvfa-onset, low-amplitude, delta, gtcs, absence", artErr: "kinds: chewing, patting, rocking, electrode-pops, sweat"},
	}
	for _, tt := range tests {
		t.Run(tt.list, func(t *testing.T) {
			s, err := ParseSeizureKinds(tt.list)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("ParseSeizureKinds = %v, %v; want an error containing %q", s, err, tt.wantErr)
				}
			} else if err != nil || !slices.Equal(s, tt.seizures) {
				t.Errorf("ParseSeizureKinds = %v, %v; want %v", s, err, tt.seizures)
			}
			a, err := ParseArtifactKinds(tt.list)
			if tt.artErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.artErr) {
					t.Errorf("ParseArtifactKinds = %v, %v; want an error containing %q", a, err, tt.artErr)
				}
			} else if err != nil || !slices.Equal(a, tt.artifacts) {
				t.Errorf("ParseArtifactKinds = %v, %v; want %v", a, err, tt.artifacts)
			}
		})
	}
}

// Label matching elsewhere marks as seizure any annotation containing
// "seizure" (acquire/edf): every seizure kind must, no artifact may.
func TestKindTexts(t *testing.T) {
	if SeizureRhythmic.Text() != "seizure" {
		t.Errorf("rhythmic is annotated %q, want \"seizure\" as before kinds existed", SeizureRhythmic.Text())
	}
	for _, k := range SeizureKinds() {
		if k != SeizureRhythmic && k.Text() != "seizure: "+string(k) {
			t.Errorf("%s is annotated %q", k, k.Text())
		}
		if k.About() == "" {
			t.Errorf("%s has no description", k)
		}
	}
	for _, k := range ArtifactKinds() {
		if strings.Contains(strings.ToLower(k.Text()), "seizure") || !strings.HasPrefix(k.Text(), "artifact: ") || k.About() == "" {
			t.Errorf("%s is annotated %q, described %q", k, k.Text(), k.About())
		}
	}
}

// allKinds has one seizure of each kind in turn and every artifact kind.
var allKinds = Config{
	Channels: 8, Rate: 100, Duration: 15 * time.Minute, Seizures: 6,
	SeizureKinds: []SeizureKind{SeizureLVFAOnset, SeizureLowAmplitude, SeizureDelta, SeizureTonicClonic, SeizureAbsence, SeizureRhythmic},
	SeizureMin:   30 * time.Second, SeizureMax: 60 * time.Second,
	ArtifactKinds: ArtifactKinds(), ArtifactsPerHour: 12, Accelerometer: true, Seed: 21,
}

func TestSeizureKindsAnnotatedAtTheirTimes(t *testing.T) {
	p, err := New(allKinds)
	if err != nil {
		t.Fatal(err)
	}
	var sz []acquire.Interval
	for _, iv := range p.Intervals() {
		if iv.Seizure {
			sz = append(sz, iv)
		}
	}
	seizures := p.Seizures()
	if len(sz) != 6 || len(seizures) != 6 {
		t.Fatalf("%d seizure intervals, %d seizures; want 6", len(sz), len(seizures))
	}
	for i, s := range seizures {
		k := allKinds.SeizureKinds[i]
		lo, hi := k.durations(p.Config())
		if s.Kind != k || sz[i].Text != k.Text() || sz[i].Start != s.Start || sz[i].End != s.End {
			t.Errorf("seizure %d: kind %s annotated %q at [%v, %v); Seizures() says %s at [%v, %v)", i, k, sz[i].Text, sz[i].Start, sz[i].End, s.Kind, s.Start, s.End)
		}
		if d := s.End - s.Start; d < lo-10*time.Millisecond || d > hi {
			t.Errorf("seizure %d (%s) lasts %v, outside %v..%v", i, k, d, lo, hi)
		}
		wantTonic := k == SeizureTonicClonic
		if got := s.Tonic >= tonicMin-10*time.Millisecond && s.Tonic <= tonicMax; got != wantTonic {
			t.Errorf("seizure %d (%s): tonic phase %v", i, k, s.Tonic)
		}
		if k.generalised() && len(s.Reached) != 8 {
			t.Errorf("seizure %d (%s) reaches %d of 8 channels; generalised kinds reach all", i, k, len(s.Reached))
		}
		if i > 0 && s.Start-seizures[i-1].End < SeizureGap {
			t.Errorf("seizures %d and %d only %v apart", i-1, i, s.Start-seizures[i-1].End)
		}
	}
	// Explicit onsets are kept to the sample, whatever the kind.
	cfg := allKinds
	cfg.Seizures = 0
	cfg.Onsets = []time.Duration{time.Minute, 3 * time.Minute, 5 * time.Minute, 7 * time.Minute, 9 * time.Minute, 11 * time.Minute}
	q, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range q.Seizures() {
		if s.Start != cfg.Onsets[i] || s.Kind != cfg.SeizureKinds[i] {
			t.Errorf("seizure %d: %s at %v, want %s at %v", i, s.Kind, s.Start, cfg.SeizureKinds[i], cfg.Onsets[i])
		}
	}
}

// The kinds other than rhythmic, the artifact kinds and the accelerometer
// draw from their own random streams: outside their intervals (and the
// post-ictal periods) the EEG is the same bits as without them.
func TestKindsLeaveTheBackgroundAlone(t *testing.T) {
	t.Parallel()
	cfg := allKinds
	cfg.SeizureKinds = cfg.SeizureKinds[:5] // not rhythmic, which draws from the background's stream
	plain := cfg
	plain.Seizures, plain.ArtifactKinds, plain.Accelerometer = 0, nil, false
	p, _, d := isolate(t, cfg, plain)
	touched := make([]bool, p.Frames())
	for _, iv := range p.Intervals() {
		end := iv.End
		if iv.Seizure {
			end += 90 * time.Second // the longest post-ictal period
		}
		for i := durationSamples(iv.Start, 100); i < min(durationSamples(end, 100), p.Frames()); i++ {
			touched[i] = true
		}
	}
	free, inside := 0, 0.0
	for c := range d {
		for i, v := range d[c] {
			switch {
			case !touched[i] && v != 0:
				t.Fatalf("channel %d sample %d (%v) differs by %g µV outside every interval", c, i, stampFor(int64(i), 100), v)
			case !touched[i]:
				free++
			default:
				inside = max(inside, math.Abs(v))
			}
		}
	}
	if free < len(d)*int(p.Frames())/10 || inside == 0 {
		t.Errorf("%d samples outside the intervals, largest difference inside %g µV: the test compares nothing", free, inside)
	}
}

// kindRecording is a 23-channel recording at 256 Hz with one seizure of
// kind k at 60 s lasting 60 s (for the focal kinds), and the seizure's
// part isolated.
func kindRecording(t *testing.T, k SeizureKind, seed uint64) (Seizure, *Patient, [][]float64, [][]float64) {
	t.Helper()
	cfg := Config{Channels: 23, Rate: 256, Duration: 3 * time.Minute, Onsets: []time.Duration{time.Minute},
		SeizureMin: time.Minute, SeizureMax: time.Minute, SeizureKinds: []SeizureKind{k}, Seed: seed}
	plain := cfg
	plain.Onsets = nil
	p, x, d := isolate(t, cfg, plain)
	return p.Seizures()[0], p, x, d
}

func TestLVFAOnsetSlowsGrowsAndSpreads(t *testing.T) {
	skipShortKinds(t)
	t.Parallel()
	for _, seed := range []uint64{1, 2, 3} {
		s, _, x, d := kindRecording(t, SeizureLVFAOnset, seed)
		c := s.Focus[0]
		on := s.Start.Seconds()
		early, mid, late := slice(d[c], 256, on+0.5, on+4.5), slice(d[c], 256, on+24, on+30), slice(d[c], 256, on+45, on+57)
		fe, fm, fl := welch(early, 256, 512).peak(1, 60), welch(mid, 256, 512).peak(1, 60), welch(late, 256, 512).peak(0.5, 60)
		t.Logf("seed %d: %.1f→%.1f Hz; focus %d at onset %.1f Hz, 24–30 s %.1f Hz, 45–57 s %.1f Hz; RMS %.1f → %.1f µV", seed, s.StartHz, s.EndHz, c, fe, fm, fl, rms(early), rms(late))
		// Low-voltage fast activity (≥ 13 Hz, Perucca et al. 2014), theta
		// within 30 s (Risinger et al. 1989), delta at the end.
		if fe < 13 || fm < 3.5 || fm > 9 || fl > 4.5 {
			t.Errorf("seed %d: dominant frequency %.1f, %.1f, %.1f Hz; want ≥ 13 at onset, theta by 30 s, delta at the end", seed, fe, fm, fl)
		}
		if rms(late) < 2*rms(early) {
			t.Errorf("seed %d: the discharge grows only from %.1f to %.1f µV RMS", seed, rms(early), rms(late))
		}
		pre := func(c int) float64 { return rms(slice(x[c], 256, on-40, on-5)) }
		involved := func(from, to float64) int {
			n := 0
			for c := range d {
				if rms(slice(d[c], 256, from, to)) > pre(c) {
					n++
				}
			}
			return n
		}
		if a, b := involved(on+1, on+4), involved(on+45, on+57); b <= a || b < 12 {
			t.Errorf("seed %d: %d channels involved at onset, %d late; want it to spread widely", seed, a, b)
		}
	}
}

func TestLowAmplitudeSeizureIsFaint(t *testing.T) {
	skipShortKinds(t)
	t.Parallel()
	for _, seed := range []uint64{1, 2, 3} {
		s, _, x, d := kindRecording(t, SeizureLowAmplitude, seed)
		c := s.Focus[0]
		on := s.Start.Seconds()
		bg := rms(slice(x[c], 256, on-40, on-5))
		part := rms(slice(d[c], 256, on+25, on+55))
		ictal := rms(slice(x[c], 256, on+25, on+55))
		f := welch(slice(x[c], 256, on+25, on+55), 256, 512).peak(1, 30)
		t.Logf("seed %d focus %d: discharge %.1f µV RMS on a %.1f µV background (recording %.2f×), %.1f Hz", seed, c, part, bg, ictal/bg, f)
		if r := part / bg; r < 0.9 || r > 2.3 {
			t.Errorf("seed %d: discharge %.2f× the background RMS, want 1.2–2 (±)", seed, r)
		}
		if f < 3.5 || f > 8.5 {
			t.Errorf("seed %d: dominant frequency %.1f Hz, want theta", seed, f)
		}
	}
}

func TestDeltaSeizureIsDeltaDominated(t *testing.T) {
	skipShortKinds(t)
	t.Parallel()
	for _, seed := range []uint64{1, 2, 3} {
		s, _, x, _ := kindRecording(t, SeizureDelta, seed)
		c := s.Focus[0]
		on := s.Start.Seconds()
		ictal := welch(slice(x[c], 256, on+20, on+55), 256, 1024)
		pre := welch(slice(x[c], 256, on-45, on-5), 256, 1024)
		f := ictal.peak(0.5, 30)
		rise := ictal.band(1, 4) / pre.band(1, 4)
		share := ictal.band(1, 4) * 3 / (ictal.band(1, 30) * 29)
		t.Logf("seed %d focus %d: peak %.2f Hz, 1–4 Hz power ×%.1f, %.0f %% of 1–30 Hz", seed, c, f, rise, 100*share)
		if f > 4 || rise < 5 || share < 0.6 {
			t.Errorf("seed %d: peak %.2f Hz, delta ×%.1f, %.0f %% of the power; want a delta-dominated discharge", seed, f, rise, 100*share)
		}
	}
}

func TestAbsenceIsGeneralisedThreeHertzSpikeAndWave(t *testing.T) {
	skipShortKinds(t)
	t.Parallel()
	s, p, x, d := kindRecording(t, SeizureAbsence, 4)
	on, end := s.Start.Seconds(), s.End.Seconds()
	if d := end - on; d < 5 || d > 15 {
		t.Fatalf("absence lasts %.1f s, want 5–15 s", d)
	}
	peaked, risen := 0, 0
	for c := range x {
		pre := rms(slice(x[c], 256, on-30, on-1))
		seg := slice(x[c], 256, on+0.5, end-0.5)
		f := welch(seg, 256, 512).peak(0.5, 30)
		if f >= 2.5 && f <= 4 {
			peaked++
		}
		// Abrupt: a second into it the channel is already at least
		// twice the background; a second after, back to it.
		first, after := rms(slice(x[c], 256, on+0.5, on+1.5)), rms(slice(x[c], 256, end+0.5, end+5))
		if first > 2*pre && after < 1.5*pre {
			risen++
		}
	}
	t.Logf("absence %.1f s, %.2f→%.2f Hz: 2.5–4 Hz peak on %d/23 channels, abrupt on %d/23", end-on, s.StartHz, s.EndHz, peaked, risen)
	if peaked < 21 || risen < 21 {
		t.Errorf("2.5–4 Hz peak on %d of 23 channels, abrupt onset and end on %d; want generalised", peaked, risen)
	}
	// Frontally predominant: the discharge on Fp1-F3 and Fp2-F4 against
	// P3-O1 and P4-O2.
	part := func(l string) float64 { return rms(slice(d[channel(t, p, l)], 256, on+0.5, end-0.5)) }
	if f, o := part("Fp1-F3")+part("Fp2-F4"), part("P3-O1")+part("P4-O2"); f < 1.3*o {
		t.Errorf("absence %.1f µV frontally, %.1f µV occipitally; want frontal predominance", f/2, o/2)
	}
}

func TestTonicClonicSeizure(t *testing.T) {
	skipShortKinds(t)
	t.Parallel()
	cfg := Config{Channels: 23, Rate: 256, Duration: 4 * time.Minute, Onsets: []time.Duration{time.Minute},
		SeizureKinds: []SeizureKind{SeizureTonicClonic}, Accelerometer: true, Seed: 5}
	plain := cfg
	plain.Onsets = nil
	p, x, d := isolate(t, cfg, plain)
	s := p.Seizures()[0]
	on, tonicEnd, end := s.Start.Seconds(), (s.Start + s.Tonic).Seconds(), s.End.Seconds()
	t.Logf("tonic %.1f s, clonic %.1f s", tonicEnd-on, end-tonicEnd)

	// Tonic phase: power above 30 Hz rises by at least 10 dB on most
	// channels (broadband EMG, Conradsen et al. 2011).
	risen := 0
	worst := math.Inf(1)
	for c := range 23 {
		pre := welch(slice(x[c], 256, on-40, on-2), 256, 256).band(30, 0.45*256)
		ton := welch(slice(x[c], 256, on+1, tonicEnd-0.5), 256, 256).band(30, 0.45*256)
		db := 10 * math.Log10(ton/pre)
		worst = min(worst, db)
		if db >= 10 {
			risen++
		}
	}
	t.Logf("tonic phase: power above 30 Hz up ≥ 10 dB on %d/23 channels (least %.1f dB)", risen, worst)
	if risen < 20 {
		t.Errorf("power above 30 Hz rises by 10 dB on only %d of 23 channels", risen)
	}

	// Clonic phase: EMG bursts whose rate falls from about 5 Hz to 1 Hz,
	// the silent periods growing (Conradsen et al. 2013), on the EMG of a
	// temporal channel (the isolated seizure, above 30 Hz, in bins of two
	// samples: 128 a second).
	c := channel(t, p, "F7-T7")
	hp := bandNoise(30, 120, 256) // only its sections: a band-pass to see the EMG
	var z chainState
	emg := make([]float64, 0, len(d[c]))
	for _, v := range slice(d[c], 256, tonicEnd-1, end) {
		emg = append(emg, hp.step(&z, v))
	}
	const bins = 128.0
	env := envelope(emg, 2)
	peak := 0.0
	for _, v := range env {
		peak = max(peak, v)
	}
	starts, ends := merge(bursts(env[int(bins):], 0.15*peak)) // from the clonic phase's start
	if len(starts) < 20 {
		t.Fatalf("%d clonic bursts", len(starts))
	}
	rate := func(from, to int) float64 { // bursts a second between starts[from] and starts[to]
		return float64(to-from) / (float64(starts[to]-starts[from]) / bins)
	}
	silence := func(from, to int) float64 { // mean silent period, s
		sum := 0.0
		for i := from; i < to; i++ {
			sum += float64(starts[i+1]-ends[i]) / bins
		}
		return sum / float64(to-from)
	}
	n := len(starts)
	first, last := rate(0, 8), rate(n-6, n-1)
	sFirst, sLast := silence(0, 8), silence(n-6, n-2)
	t.Logf("clonic: %d bursts, %.1f Hz at first, %.1f Hz at last; silent periods %.2f s → %.2f s", n, first, last, sFirst, sLast)
	if first < 3.5 || first > 6 || last < 0.7 || last > 1.6 || sLast < 3*sFirst {
		t.Errorf("clonic bursts at %.1f Hz then %.1f Hz, silences %.2f → %.2f s; want about 5 → 1 Hz with growing silences", first, last, sFirst, sLast)
	}

	// The accelerometer: one jerk a burst (the isolated part, less its
	// mean: the posture's tilt), and the tilt itself.
	from, to := durationSamples(s.Start+s.Tonic, 256), durationSamples(s.End, 256)
	var mag []float64
	axes := [3][]float64{d[23][from:to], d[24][from:to], d[25][from:to]}
	for i := range axes[0] {
		ss := 0.0
		for _, ax := range axes {
			v := ax[i] - mean(ax)
			ss += v * v
		}
		mag = append(mag, math.Sqrt(ss))
	}
	js, _ := merge(bursts(envelope(mag, 2), 0.1))
	tiltBefore := mean(slice(x[24], 256, on-20, on-1))
	tiltDuring := mean(slice(x[24], 256, on+3, tonicEnd-1))
	t.Logf("accelerometer: %d jerks for %d bursts; Y %.3f g → %.3f g in the tonic phase", len(js), n, tiltBefore, tiltDuring)
	if len(js) < n-3 || len(js) > n+3 || math.Abs(tiltDuring-tiltBefore) < 0.15 {
		t.Errorf("%d accelerometer jerks for %d clonic bursts, tilt %.3f → %.3f g", len(js), n, tiltBefore, tiltDuring)
	}
	// Post-ictal generalised suppression (Lhatoo et al. 2010): 8–30 Hz
	// power down to a quarter or less.
	suppressed := 0
	for c := range 23 {
		post := welch(slice(x[c], 256, end+1, end+7), 256, 256).band(8, 30)
		pre := welch(slice(x[c], 256, on-40, on-2), 256, 256).band(8, 30)
		if post < 0.25*pre {
			suppressed++
		}
	}
	if suppressed < 20 {
		t.Errorf("post-ictal suppression on only %d of 23 channels", suppressed)
	}
}

func TestAccelerometerChannelsAreNotEEG(t *testing.T) {
	p, x := record(t, Config{Channels: 4, Rate: 128, Duration: 20 * time.Second, Accelerometer: true, Seed: 1})
	info := p.Info()
	if len(info.Channels) != 7 {
		t.Fatalf("%d channels, want 4 EEG and 3 accelerometer", len(info.Channels))
	}
	for i, l := range []string{"Accel X", "Accel Y", "Accel Z"} {
		if c := info.Channels[4+i]; c.Label != l || c.Unit != "g" || c.Rate != 128 {
			t.Errorf("channel %d = %+v", 4+i, c)
		}
	}
	choice, err := acquire.ChooseEEG(info, nil)
	if err != nil || !slices.Equal(choice.Used, []int{0, 1, 2, 3}) || len(choice.Omitted) != 3 {
		t.Errorf("ChooseEEG = %+v, %v; want the 4 EEG channels used and the accelerometer left out", choice, err)
	}
	// At rest: gravity on Z, a few mg of noise.
	if z, n := mean(x[6]), rms(x[4]); math.Abs(z-1) > 0.01 || n < 0.0002 || n > 0.005 {
		t.Errorf("at rest Z = %.4f g, X noise %.4f g RMS", z, n)
	}
	if err := p.ReadFrame(acquire.NewFrame(4)); !errors.Is(err, acquire.ErrFrameSize) {
		t.Errorf("a 4-sample frame for 7 channels: %v", err)
	}
}

// Every kind at the rates of real recorders: finite samples, and the
// seizures' and artifacts' own parts (EEG and accelerometer) keep their
// power below 0.45 × the rate, where they would alias. The seizures and
// the artifacts are recorded apart, so that an lvfa-onset seizure's
// attenuation of the background (which is not band-limited) does not
// count against an artifact; for that kind the part after its onset
// (from 40 % on) is measured.
func TestKindsStayBelowNyquist(t *testing.T) {
	skipShortKinds(t)
	t.Parallel()
	for _, rate := range []int{100, 128, 250, 256, 500, 1000} {
		t.Run(fmt.Sprint(rate), func(t *testing.T) {
			t.Parallel()
			seizures := Config{Channels: 2, Rate: rate, Duration: 430 * time.Second, SeizureMax: 30 * time.Second,
				Onsets:       []time.Duration{5 * time.Second, 90 * time.Second, 175 * time.Second, 260 * time.Second, 345 * time.Second},
				SeizureKinds: allKinds.SeizureKinds[:5], Accelerometer: true, Seed: 21}
			artifacts := Config{Channels: 2, Rate: rate, Duration: 4 * time.Minute,
				ArtifactKinds: ArtifactKinds(), ArtifactsPerHour: MaxArtifactsPerHour, Accelerometer: true, Seed: 21}
			for _, cfg := range []Config{seizures, artifacts} {
				plain := cfg
				plain.Onsets, plain.ArtifactKinds = nil, nil
				p, x, d := isolate(t, cfg, plain)
				for c := range x {
					if !finite(x[c]) {
						t.Fatalf("channel %d has a NaN or an infinity", c)
					}
				}
				for _, iv := range p.Intervals() {
					from, to := iv.Start.Seconds(), iv.End.Seconds()
					if iv.Text == SeizureLVFAOnset.Text() {
						from += 0.4 * (to - from)
					}
					worst := 0.0
					for c := range d {
						if seg := slice(d[c], rate, from, to); len(seg) >= rate {
							worst = max(worst, aboveFraction(seg, rate, 0.45))
						}
					}
					// The discharges are sums of harmonics below 0.4 × the
					// rate: nothing above 0.45 × but the estimate's leakage.
					limit := 1e-3
					if iv.Seizure && iv.Text != SeizureTonicClonic.Text() {
						limit = 2e-5
					}
					if rate == 100 {
						t.Logf("%q at %v: %.2g of its power at or above 0.45 × %d Hz", iv.Text, iv.Start, worst, rate)
					}
					if worst > limit {
						t.Errorf("%q at %v: %.2g of its power at or above 0.45 × %d Hz", iv.Text, iv.Start, worst, rate)
					}
				}
			}
		})
	}
	// The highest rates: finite, and the intervals where they should be.
	cfg := Config{Channels: 2, Rate: MaxRate, Duration: 40 * time.Second, Onsets: []time.Duration{10 * time.Second},
		SeizureKinds: []SeizureKind{SeizureAbsence}, ArtifactKinds: ArtifactKinds(), ArtifactsPerHour: MaxArtifactsPerHour, Accelerometer: true, Seed: 3}
	p, x := record(t, cfg)
	for c := range x {
		if !finite(x[c]) {
			t.Fatalf("%d Hz: channel %d has a NaN or an infinity", MaxRate, c)
		}
	}
	if s := p.Seizures()[0]; s.Start != 10*time.Second {
		t.Errorf("%d Hz: absence at %v", MaxRate, s.Start)
	}
}

func TestKindsSameSeedSameSamples(t *testing.T) {
	cfg := allKinds
	cfg.Duration, cfg.Seizures = 15*time.Minute, 6
	a, b := digest(t, cfg), digest(t, cfg)
	if a != b {
		t.Fatalf("two patients with seed 21 differ: %s, %s", a, b)
	}
	cfg.Seed = 22
	if c := digest(t, cfg); c == a {
		t.Errorf("seeds 21 and 22 give the same samples")
	}
	// Without the new kinds, the same samples as before they existed.
	explicit := everything
	explicit.SeizureKinds = []SeizureKind{SeizureRhythmic}
	if digest(t, explicit) != goldenDigest {
		t.Errorf("SeizureKinds {rhythmic} changes the samples of the default kind")
	}
}

// kindsGoldenDigest is the SHA-256 of the samples of allKinds, computed
// on linux/amd64 (see goldenDigest).
const kindsGoldenDigest = "ef9b44d3d6b0996b7e0f76df7783d6dad367c140a27435de1dfbd2b9358395f8"

func TestKindsMatchGoldenDigest(t *testing.T) {
	if got := digest(t, allKinds); got != kindsGoldenDigest {
		t.Errorf("digest of allKinds is %s, want %s", got, kindsGoldenDigest)
	}
}
