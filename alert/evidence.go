package alert

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
)

// Evidence snippets: how much signal an alert carries and the bounds a
// receiver enforces.
const (
	// EvidenceBefore is how much signal before the onset an evidence
	// snippet holds, and EvidenceAfter how much after the detection.
	EvidenceBefore = 10 * time.Second
	EvidenceAfter  = 10 * time.Second
	// MaxEvidenceSpan is the longest snippet: when onset and detection are
	// far apart, the snippet keeps the most recent MaxEvidenceSpan.
	MaxEvidenceSpan = 60 * time.Second
	// MaxEvidenceChannels is the most channels a snippet holds.
	MaxEvidenceChannels = 8
	// MaxEvidenceSize bounds an evidence payload, in bytes. At the limits
	// above a 512 Hz recording makes about 660 KiB.
	MaxEvidenceSize = 1 << 20
	// MaxEvidenceRate bounds the sampling rate a snippet may declare.
	MaxEvidenceRate = 20000
)

// ErrEvidence is wrapped by every error of ParseEvidence.
var ErrEvidence = errors.New("alert: invalid evidence")

// evidenceWire is the JSON form of an evidence payload.
type evidenceWire struct {
	V          int       `json:"v"`
	AlertID    string    `json:"alert_id"`
	Site       string    `json:"site"`
	Bed        string    `json:"bed"`
	Onset      time.Time `json:"onset"`
	DetectedAt time.Time `json:"detected_at"`
	Start      time.Time `json:"start"`
	Rate       float64   `json:"rate"`
	Unit       string    `json:"unit"`
	Channels   []string  `json:"channels"`
	Scale      []float64 `json:"scale"`
	Data       []string  `json:"data"`
}

// AppendEvidence appends the evidence payload of the MQTT contract:
//
//	{"v":1,"alert_id","site","bed","onset","detected_at","start","rate",
//	 "unit":"uV","channels":[…],"scale":[…],"data":[…]}
//
// Each channel's samples are quantised to 16-bit integers with that
// channel's own scale (µV per count: the channel's largest magnitude over
// 32767, so the error is at most half a count) and sent as the base64
// (standard alphabet, padded) of their little-endian bytes: sample i of
// channel c is int16(data[c][2i:2i+2]) × scale[c] µV. Non-finite samples
// are sent as 0. AppendEvidence allocates only to grow dst: alerts are
// rare and it is not on the per-window path.
func AppendEvidence(dst []byte, ev *Evidence) []byte {
	dst = append(dst, `{"v":1,"alert_id":`...)
	dst = AppendJSONString(dst, ev.AlertID)
	dst = appendOrigin(dst, ev.Site, ev.Bed, ev.Onset, ev.DetectedAt)
	dst = appendTime(dst, `,"start":`, ev.Start)
	dst = append(dst, `,"rate":`...)
	dst = appendFloat(dst, ev.Rate)
	dst = append(dst, `,"unit":"uV","channels":`...)
	dst = appendJSONStrings(dst, ev.Channels)
	scales := make([]float64, len(ev.Samples))
	for c, xs := range ev.Samples {
		scales[c] = evidenceScale(xs)
	}
	dst = append(dst, `,"scale":[`...)
	for c, s := range scales {
		if c > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendFloat(dst, s, 'g', -1, 64)
	}
	dst = append(dst, `],"data":[`...)
	var raw []byte
	for c, xs := range ev.Samples {
		if c > 0 {
			dst = append(dst, ',')
		}
		raw = raw[:0]
		for _, x := range xs {
			q := 0.0
			if !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0) {
				q = math.Round(float64(x) / scales[c])
			}
			raw = binary.LittleEndian.AppendUint16(raw, uint16(int16(max(-32767, min(32767, q)))))
		}
		dst = append(dst, '"')
		dst = base64.StdEncoding.AppendEncode(dst, raw)
		dst = append(dst, '"')
	}
	return append(dst, "]}"...)
}

// evidenceScale returns µV per count for xs: its largest finite magnitude
// over 32767, and 1e-3 µV for a flat or empty channel so the scale is
// never 0.
func evidenceScale(xs []float32) float64 {
	peak := 0.0
	for _, x := range xs {
		if a := math.Abs(float64(x)); a > peak && !math.IsInf(a, 0) {
			peak = a
		}
	}
	if peak == 0 {
		return 1e-3
	}
	return peak / 32767
}

// ParseEvidence reads an evidence payload strictly, as a receiver such as
// the ward board must before drawing it: at most MaxEvidenceSize bytes,
// one JSON object with exactly the contract's fields, "v" 1, "unit" "uV",
// a UUID alert_id, 1 to MaxEvidenceChannels channels with as many finite
// positive scales and data strings, every data string the base64 of the
// same whole number of 16-bit samples, a rate in (0, MaxEvidenceRate] and
// at most MaxEvidenceSpan of signal. Errors wrap ErrEvidence and say what
// was wrong.
func ParseEvidence(b []byte) (*Evidence, error) {
	var w evidenceWire
	if err := decodeStrict(b, MaxEvidenceSize, &w); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrEvidence, err)
	}
	id, ok := normaliseUUID(w.AlertID)
	switch {
	case w.V != 1:
		return nil, fmt.Errorf(`%w: field "v" is %d, want 1`, ErrEvidence, w.V)
	case !ok:
		return nil, fmt.Errorf(`%w: field "alert_id": %q is not a UUID`, ErrEvidence, w.AlertID)
	case w.Unit != "uV":
		return nil, fmt.Errorf(`%w: field "unit" is %q, want "uV"`, ErrEvidence, w.Unit)
	case !(w.Rate > 0 && w.Rate <= MaxEvidenceRate):
		return nil, fmt.Errorf(`%w: field "rate" is %g, want (0, %d] Hz`, ErrEvidence, w.Rate, MaxEvidenceRate)
	case len(w.Channels) < 1 || len(w.Channels) > MaxEvidenceChannels:
		return nil, fmt.Errorf(`%w: %d channels, want 1 to %d`, ErrEvidence, len(w.Channels), MaxEvidenceChannels)
	case len(w.Scale) != len(w.Channels) || len(w.Data) != len(w.Channels):
		return nil, fmt.Errorf(`%w: %d channels, %d scales and %d data strings; want as many of each`, ErrEvidence, len(w.Channels), len(w.Scale), len(w.Data))
	}
	ev := &Evidence{AlertID: id, Site: w.Site, Bed: w.Bed, Onset: w.Onset, DetectedAt: w.DetectedAt,
		Start: w.Start, Rate: w.Rate, Channels: w.Channels, Samples: make([][]float32, len(w.Data))}
	for c, d := range w.Data {
		s := w.Scale[c]
		if !(s > 0) || math.IsInf(s, 0) {
			return nil, fmt.Errorf(`%w: channel %d (%s): scale %g, want a finite positive number`, ErrEvidence, c, w.Channels[c], s)
		}
		raw, err := base64.StdEncoding.DecodeString(d)
		if err != nil {
			return nil, fmt.Errorf("%w: channel %d (%s): data: %v", ErrEvidence, c, w.Channels[c], err)
		}
		if len(raw)%2 != 0 || (c > 0 && len(raw)/2 != len(ev.Samples[0])) {
			return nil, fmt.Errorf("%w: channel %d (%s): %d bytes of data, want %d", ErrEvidence, c, w.Channels[c], len(raw), 2*len(ev.Samples[0]))
		}
		xs := make([]float32, len(raw)/2)
		for i := range xs {
			xs[i] = float32(float64(int16(binary.LittleEndian.Uint16(raw[2*i:]))) * s)
		}
		ev.Samples[c] = xs
	}
	if span := time.Duration(float64(len(ev.Samples[0])) / w.Rate * float64(time.Second)); span > MaxEvidenceSpan+time.Second {
		return nil, fmt.Errorf("%w: %v of signal, more than %v", ErrEvidence, span.Round(time.Millisecond), MaxEvidenceSpan)
	}
	return ev, nil
}
