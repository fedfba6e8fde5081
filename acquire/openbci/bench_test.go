package openbci

import (
	"context"
	"io"
	"os"
	"testing"

	"github.com/ictal/ictal/acquire"
)

// BenchmarkDecode measures decoding per packet of the GUI recording: one
// frame per packet for the Cyton, one per two packets with the Daisy.
func BenchmarkDecode(b *testing.B) {
	samples := loadGUI(b, 512)
	daisy, _ := daisyScript(samples)
	for _, bc := range []struct {
		name  string
		cfg   Config
		input []byte
	}{
		{"cyton", Config{}, guiStream(samples)},
		{"daisy", Config{Daisy: true}, daisy},
	} {
		b.Run(bc.name, func(b *testing.B) {
			d, err := NewDecoder(bc.cfg)
			if err != nil {
				b.Fatal(err)
			}
			f := acquire.NewFrame(d.Channels())
			b.SetBytes(PacketSize)
			b.ReportAllocs()
			in := bc.input
			for b.Loop() {
				// One packet per iteration.
				if len(in) < PacketSize {
					in = bc.input
				}
				p := in[:PacketSize]
				in = in[PacketSize:]
				for len(p) > 0 {
					n, _, err := d.Decode(p, f)
					if err != nil {
						b.Fatal(err)
					}
					p = p[n:]
				}
			}
		})
	}
}

// loopPort is an in-memory board: it answers nothing, reads time out until
// 'b' is written, then it streams data over and over.
type loopPort struct {
	data []byte
	off  int
	on   bool
}

func (p *loopPort) Read(b []byte) (int, error) {
	if !p.on {
		return 0, os.ErrDeadlineExceeded
	}
	n := copy(b, p.data[p.off:])
	p.off = (p.off + n) % len(p.data)
	return n, nil
}

func (p *loopPort) Write(b []byte) (int, error) {
	for _, c := range b {
		switch c {
		case 'b':
			p.on = true
		case 's':
			p.on = false
		}
	}
	return len(b), nil
}

func (p *loopPort) Close() error { return nil }

// BenchmarkReadFrame measures the source's per-frame cost above the port:
// buffering, decoding and stamping, with the port in memory.
func BenchmarkReadFrame(b *testing.B) {
	samples := loadGUI(b, 512)
	o := DefaultOpts
	o.Reset = false
	o.Open = func(string) (io.ReadWriteCloser, error) { return &loopPort{data: guiStream(samples)}, nil }
	s, err := Open(context.Background(), "memory", &o)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	f := acquire.NewFrame(8)
	b.ReportAllocs()
	for b.Loop() {
		if err := s.ReadFrame(f); err != nil {
			b.Fatal(err)
		}
	}
	if st := s.Stats(); st.Lost != 0 || st.Skipped != 0 {
		b.Fatalf("stats %+v", st)
	}
}
