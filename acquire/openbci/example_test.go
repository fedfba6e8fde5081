package openbci_test

import (
	"context"
	"fmt"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/openbci"
)

// A decoder finds packets in a byte stream, skips garbage and flags lost
// packets.
func ExampleDecoder() {
	d, err := openbci.NewDecoder(openbci.Config{}) // Cyton, gain 24
	if err != nil {
		panic(err)
	}
	var stream []byte
	stream = append(stream, "daisy removed$$$"...)  // a reply before the data
	for _, counter := range []uint8{7, 8, 11, 12} { // 9 and 10 are lost
		p := openbci.Packet{Counter: counter, Footer: openbci.FooterAccel}
		p.Counts[0] = 1000 * int32(counter)
		p.Counts[1] = openbci.MaxCount
		stream = openbci.AppendPacket(stream, &p)
	}
	f := acquire.NewFrame(d.Channels())
	for len(stream) > 0 {
		n, ok, err := d.Decode(stream, f)
		if err != nil {
			panic(err)
		}
		stream = stream[n:]
		if ok {
			fmt.Printf("seq %d at %v: %.2f µV, flags %v, saturated %02b\n", f.Seq, f.Time, f.Samples[0], f.Flags, f.Saturated)
		}
	}
	st := d.Stats()
	fmt.Printf("skipped %d bytes, lost %d frames\n", st.Skipped, st.Lost)
	// Output:
	// seq 0 at 0s: 156.46 µV, flags saturated, saturated 10
	// seq 1 at 4ms: 178.81 µV, flags saturated, saturated 10
	// seq 4 at 16ms: 245.87 µV, flags gap|saturated, saturated 10
	// seq 5 at 20ms: 268.22 µV, flags saturated, saturated 10
	// skipped 16 bytes, lost 2 frames
}

// ParsePacket decodes a single packet and says what is wrong with a bad
// one.
func ExampleParsePacket() {
	p := openbci.Packet{Counter: 42, Footer: openbci.FooterAccel, Aux: [6]byte{0x00, 0x40, 0xFF, 0xC0, 0x10, 0x00}}
	p.Counts[0] = -1
	b := openbci.AppendPacket(nil, &p)
	q, err := openbci.ParsePacket(b)
	if err != nil {
		panic(err)
	}
	x, y, z, _ := q.Accel()
	fmt.Printf("counter %d, channel 1 %d counts, accel %.3f %.3f %.3f g\n", q.Counter, q.Counts[0], float64(x)*openbci.AccelScale, float64(y)*openbci.AccelScale, float64(z)*openbci.AccelScale)
	b[32] = 0xC9
	_, err = openbci.ParsePacket(b)
	fmt.Println(err)
	// Output:
	// counter 42, channel 1 -1 counts, accel 0.008 -0.008 0.512 g
	// openbci: bad packet footer: byte 32 is 0xc9, want 0xc0–0xc6
}

// Open a Cyton with Daisy on its dongle and read frames until interrupted.
// (Not run: it needs the board.)
func ExampleOpen() {
	ctx := context.Background()
	opts := openbci.DefaultOpts
	opts.Daisy = true
	src, err := openbci.Open(ctx, "/dev/ttyUSB0", &opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer src.Close()
	f := acquire.NewFrame(len(src.Info().Channels))
	for {
		if err := src.ReadFrame(f); err != nil {
			fmt.Println(err)
			return
		}
		if f.Flags&acquire.FlagGap != 0 {
			fmt.Println("lost frames before", f.Seq)
		}
	}
}
