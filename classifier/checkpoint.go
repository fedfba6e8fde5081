package classifier

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// Checkpoint layout (all integers and float bits little-endian):
//
//	magic "ICTALCLF" | u64 version | config | u64 examples | f64 n⁺ | f64 n⁻ |
//	M × member | SMOTE memory (SB, SBO only) | u32 CRC-32C of everything before
//
// config is the effective Config (defaults filled): two strings (u64
// length, bytes), then Features, Members, Neighbors, Memory, Seed as u64
// and C, CP, CN, Beta as f64. A member is its 12 running sums and rates
// (f64), its two draw counts (u64), its random stream (20 bytes) and its
// learner's state.
//
// Version 2 is version 1 with a u64 of option flags after Beta (bit 0:
// LiteralVote); it is written only when a flag is set, so a model with
// the default options writes version 1, as before the flags existed.
const (
	checkpointMagic   = "ICTALCLF"
	checkpointVersion = 2
	memberFixedLen    = 12*8 + 2*8 + streamEncodedLen
	maxNameLen        = 64
)

// ErrVersion is wrapped by Load's error for a checkpoint written by a
// newer, incompatible version of ictal.
var ErrVersion = errors.New("classifier: unsupported checkpoint version")

// Option flags of a version 2 checkpoint.
const flagLiteralVote = 1 << 0

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func appendString(b []byte, s string) []byte {
	b = appendU64(b, uint64(len(s)))
	return append(b, s...)
}

func (d *decoder) str(what string) string {
	n := d.u64(what + " length")
	if d.err != nil {
		return ""
	}
	if n > maxNameLen || n > uint64(len(d.buf)-d.off) {
		d.fail(fmt.Sprintf("%s: length %d out of range", what, n))
		return ""
	}
	s := string(d.buf[d.off : d.off+int(n)])
	d.off += int(n)
	return s
}

// MarshalBinary implements Model and encoding.BinaryMarshaler.
func (e *ensemble) MarshalBinary() ([]byte, error) {
	c := e.cfg
	states, err := e.customStates()
	if err != nil {
		return nil, err
	}
	size := 8 + 8 + 2*8 + len(c.Algorithm) + len(c.Learner) + 9*8 + 3*8 + len(e.members)*memberFixedLen + 4
	for m := range e.members {
		if states != nil && states[m] != nil {
			size += 8 + len(states[m])
		} else {
			size += e.members[m].h.encodedLen()
		}
	}
	if e.mem != nil {
		size += e.mem.encodedLen()
	}
	var flags uint64
	if c.LiteralVote {
		flags |= flagLiteralVote
	}
	version := uint64(1)
	if flags != 0 {
		version = 2
		size += 8
	}
	b := make([]byte, 0, size)
	b = append(b, checkpointMagic...)
	b = appendU64(b, version)
	b = appendString(b, string(c.Algorithm))
	b = appendString(b, string(c.Learner))
	for _, v := range []int{c.Features, c.Members, c.Neighbors, c.Memory} {
		b = appendU64(b, uint64(v))
	}
	b = appendU64(b, c.Seed)
	b = appendF64s(b, []float64{c.C, c.CP, c.CN, c.Beta})
	if version == 2 {
		b = appendU64(b, flags)
	}
	b = appendU64(b, e.examples)
	b = appendF64(b, e.nPos)
	b = appendF64(b, e.nNeg)
	for m := range e.members {
		mb := &e.members[m]
		b = appendF64s(b, []float64{mb.sc, mb.sw, mb.tp, mb.tn, mb.fp, mb.fn, mb.sum, mb.pos, mb.neg, mb.lambda, mb.rate, mb.smoteRate})
		b = appendU64(b, mb.trained)
		b = appendU64(b, mb.synthetic)
		b = mb.rng.appendBinary(b)
		if states != nil && states[m] != nil {
			b = appendCustomState(b, states[m])
		} else {
			b = mb.h.appendBinary(b)
		}
	}
	if e.mem != nil {
		b = e.mem.appendBinary(b)
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli)), nil
}

// Load restores a model from a checkpoint written by MarshalBinary. A
// truncated, corrupted or inconsistent checkpoint gives an error wrapping
// ErrCorrupt (or ErrVersion) that says what is wrong and at which byte;
// Load never panics and allocates the model only after the checkpoint's
// size has been checked against its configuration. A configuration that
// New would refuse, such as a cost beyond MaxCost or a model beyond
// MaxLearnWork, is refused here too, even under a valid checksum (the
// error also wraps the *ConfigError naming the setting): every model Load
// returns learns in bounded time.
//
// The Model is an Ensemble. A checkpoint of an ensemble of a custom
// learner (NewWithLearner) is loaded with LoadWithLearner instead.
func Load(data []byte) (Model, error) {
	e, err := load(data, nil)
	if err != nil {
		return nil, err // not a nil *ensemble in a non-nil Model
	}
	return e, nil
}

// LoadWithLearner is Load for a checkpoint of NewWithLearner's ensemble:
// mk makes the members, as for NewWithLearner, and each restores its state
// with UnmarshalBinary (an error there is reported wrapping ErrCorrupt, as
// is a Dimensioned learner whose Dim is not the checkpoint's dimension).
// A checkpoint of built-in learners is refused: Load restores it.
func LoadWithLearner(data []byte, mk LearnerFactory) (Ensemble, error) {
	if mk == nil {
		return nil, fmt.Errorf("classifier: LoadWithLearner with a nil factory")
	}
	e, err := load(data, mk)
	if err != nil {
		return nil, err
	}
	return e, nil
}

// load is Load (mk nil) or LoadWithLearner.
func load(data []byte, mk LearnerFactory) (*ensemble, error) {
	body, err := checkpointBody(data)
	if err != nil {
		return nil, err
	}
	d := &decoder{buf: body, off: len(checkpointMagic)}
	c, err := decodeConfig(d)
	if err != nil {
		return nil, err
	}
	eff, a, ns, err := c.validate(mk != nil)
	if err != nil {
		// Damage, or a setting beyond this build's limits (MaxCost,
		// MaxLearnWork, ...): the *ConfigError says which.
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	if eff != c {
		return nil, fmt.Errorf("%w: configuration is not in effective form", ErrCorrupt)
	}
	ll := learnerEncodedLen(c.Learner, c.Features)
	if mk != nil {
		ll = 8 // at least a custom learner's length
	}
	need := 3*8 + c.Members*(memberFixedLen+ll)
	if a.smote() {
		need += 4 * 8
	}
	if len(body)-d.off < need {
		return nil, fmt.Errorf("%w: %d bytes of state, the configuration needs at least %d", ErrCorrupt, len(body)-d.off, need)
	}
	var e *ensemble
	if mk == nil {
		e = newEnsemble(c, a, ns, func(int) learner { return newLearner(c.Learner, c.Features, c.Beta) })
	} else {
		ls, err := makeLearners(c, mk)
		if errors.Is(err, errDimension) {
			// The factory's learners cannot hold this checkpoint, as
			// when one refuses its state.
			return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
		} else if err != nil {
			return nil, err
		}
		e = newEnsemble(c, a, ns, func(m int) learner { return ls[m] })
		e.factory = mk
	}
	if err := e.decodeState(d); err != nil {
		return nil, err
	}
	return e, nil
}

// checkpointBody checks a checkpoint's length, magic and CRC-32C and
// returns everything before the checksum.
func checkpointBody(data []byte) ([]byte, error) {
	if len(data) < len(checkpointMagic)+8+4 {
		return nil, fmt.Errorf("%w: %d bytes is too short for a checkpoint", ErrCorrupt, len(data))
	}
	if string(data[:len(checkpointMagic)]) != checkpointMagic {
		return nil, fmt.Errorf("%w: bad magic %q at byte 0", ErrCorrupt, data[:len(checkpointMagic)])
	}
	body := data[:len(data)-4]
	if got, want := crc32.Checksum(body, castagnoli), binary.LittleEndian.Uint32(data[len(body):]); got != want {
		return nil, fmt.Errorf("%w: checksum %08x, stored %08x (truncated or damaged)", ErrCorrupt, got, want)
	}
	return body, nil
}

// decodeConfig reads the version and the configuration that follows the
// magic. It checks their encoding only; the caller validates the
// settings.
func decodeConfig(d *decoder) (Config, error) {
	var c Config
	version := d.u64("version")
	if version != 1 && version != 2 {
		return c, fmt.Errorf("%w: version %d (this build reads 1 and %d)", ErrVersion, version, checkpointVersion)
	}
	c.Algorithm = Algorithm(d.str("algorithm"))
	c.Learner = LearnerName(d.str("learner"))
	ints := [4]uint64{}
	for i := range ints {
		ints[i] = d.u64("config")
	}
	c.Seed = d.u64("seed")
	c.C, c.CP, c.CN, c.Beta = d.f64("C"), d.f64("CP"), d.f64("CN"), d.f64("Beta")
	if version == 2 {
		at := d.off
		flags := d.u64("option flags")
		if d.err == nil && (flags == 0 || flags&^flagLiteralVote != 0) {
			d.off = at
			d.fail(fmt.Sprintf("option flags %#x: want a known flag set (version 1 has none)", flags))
		}
		c.LiteralVote = flags&flagLiteralVote != 0
	}
	if d.err != nil {
		return c, d.err
	}
	for _, v := range ints {
		if v > 1<<31 {
			return c, fmt.Errorf("%w: configuration value %d out of range", ErrCorrupt, v)
		}
	}
	c.Features, c.Members, c.Neighbors, c.Memory = int(ints[0]), int(ints[1]), int(ints[2]), int(ints[3])
	return c, nil
}

// decodeState reads what follows the configuration into e, built for
// that configuration: the example counts, each member and the SMOTE
// memory, which must end the body exactly.
func (e *ensemble) decodeState(d *decoder) error {
	e.examples = d.u64("examples")
	e.nPos = d.nonNeg("n+")
	e.nNeg = d.nonNeg("n-")
	for m := range e.members {
		if err := e.members[m].decode(d, m); err != nil {
			return err
		}
	}
	if e.mem != nil {
		e.mem.decode(d)
	}
	if d.err != nil {
		return d.err
	}
	if d.off != len(d.buf) {
		return fmt.Errorf("%w: %d unexpected bytes at byte %d", ErrCorrupt, len(d.buf)-d.off, d.off)
	}
	return nil
}

// decode reads member m's running sums, draw counts, random stream and
// learner state.
func (mb *member) decode(d *decoder, m int) error {
	for _, p := range []*float64{&mb.sc, &mb.sw, &mb.tp, &mb.tn, &mb.fp, &mb.fn, &mb.sum, &mb.pos, &mb.neg, &mb.lambda, &mb.rate, &mb.smoteRate} {
		*p = d.nonNeg(fmt.Sprintf("member %d running sum", m))
	}
	mb.trained = d.u64("draw count")
	mb.synthetic = d.u64("draw count")
	mb.rng.decode(d)
	if d.err != nil {
		return d.err
	}
	if err := mb.h.decode(d); err != nil {
		if !errors.Is(err, ErrCorrupt) {
			err = fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		return fmt.Errorf("member %d learner: %w", m, err)
	}
	return nil
}
